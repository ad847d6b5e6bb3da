import { useImageSrc, type UserInfo } from '@atrium/sdk';

/** The user's uploaded avatar as an address an `<img>` can show; undefined for the default picture. */
export function useAvatarSrc(user: UserInfo | null | undefined): string | undefined {
  const src = user?.userHeadImgUrl && user.userHeadImgUrl !== 'defaultImgUrl' ? user.userHeadImgUrl : undefined;
  return useImageSrc(src);
}
