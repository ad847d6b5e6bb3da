import { useEffect, useState } from 'react';
import { appUrl } from './base';
import { request } from './request';

/** Whether an image address is a platform file, served only with the session's request headers. */
export function isPlatformFile(src: string | undefined): boolean {
  return !!src && src.startsWith('/api/');
}

/**
 * The address an `<img>` can show for `src`. Platform files (`/api/...`, such as uploaded avatars) are
 * served only to a signed-in request, and an `<img>` cannot send the session's headers: those are
 * fetched through the request client and shown from a blob URL, released when the image changes or
 * leaves the screen. Other addresses pass through (the platform's own under its path prefix); undefined while loading or on failure.
 */
export function useImageSrc(src: string | undefined): string | undefined {
  const platform = isPlatformFile(src);
  const [url, setUrl] = useState<string | undefined>(platform || !src ? undefined : appUrl(src));
  useEffect(() => {
    if (!platform) {
      setUrl(src && appUrl(src));
      return undefined;
    }
    let alive = true;
    let made: string | undefined;
    setUrl(undefined);
    request<Blob>(src!, { blob: true, silent: true })
      .then((blob) => {
        if (!alive || !(blob instanceof Blob)) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [src, platform]);
  return url;
}
