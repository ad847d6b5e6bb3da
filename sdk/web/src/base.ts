/**
 * The path prefix the platform is served under: '' at a site's root, '/atrium' behind a reverse proxy at
 * `/atrium/`. The kernel writes it into the page as `<base href="/atrium/">` (ATRIUM_BASE_PATH); the
 * platform's own addresses (`/api/...`, `/ws`, `/plugins/...`, `/login`) are written from the root and
 * put under the prefix by `appUrl` where the browser is asked for them.
 */

export function basePath(): string {
  if (typeof document === 'undefined' || typeof document.querySelector !== 'function') return '';
  const href = document.querySelector('base')?.getAttribute('href') || '/';
  return href.startsWith('/') && !href.startsWith('//') ? href.replace(/\/+$/, '') : '';
}

function under(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** A platform address (`/api/base/x`) as the browser must ask for it (`/atrium/api/base/x`); other
 * addresses (another site's, relative ones, `data:` and `blob:`) and those already under the prefix pass
 * through. */
export function appUrl(path: string): string {
  const base = basePath();
  if (!base || !path.startsWith('/') || path.startsWith('//') || under(path, base)) return path;
  return base + path;
}

/** A browser path (`/atrium/home`) as the platform's routes name it (`/home`). */
export function appPath(pathname: string): string {
  const base = basePath();
  if (!base || !under(pathname, base)) return pathname;
  return pathname.slice(base.length) || '/';
}

/** The WebSocket address of a platform path on this page's host (`ws(s)://host/atrium/ws`). */
export function socketUrl(path: string): string {
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${window.location.host}${appUrl(path)}`;
}
