/** Paths usage tracking never records, besides the sign-in page and the open routes (which the SDK's
 * tracking helper skips on its own): the pages around signing in and the error page. A deployment adds
 * its own by setting `window.ATRIUM_TRACKING_WHITELIST = ['/path', ...]` before the shell starts; a path
 * covers itself and everything under it. */
export const UNTRACKED_PATHS: readonly string[] = ['/register', '/forgot-password', '/404'];

export function trackingWhitelist(): string[] {
  const configured = (globalThis as { ATRIUM_TRACKING_WHITELIST?: unknown }).ATRIUM_TRACKING_WHITELIST;
  const extra = Array.isArray(configured) ? configured.filter((p): p is string => typeof p === 'string' && p.startsWith('/')) : [];
  return [...UNTRACKED_PATHS, ...extra];
}
