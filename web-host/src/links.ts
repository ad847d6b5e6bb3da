/** Stock-message situations of links (spec 8), pure. */

/** Whether a link's time is out: `expires` is an epoch time in milliseconds (or in seconds when it is
 * under 10^12); a missing or unreadable value never expires. */
export function linkOutdated(expires: string | null | undefined, now = Date.now()): boolean {
  if (!expires || !/^\d+$/.test(expires.trim())) return false;
  const value = Number(expires.trim());
  const ms = value < 1e12 ? value * 1000 : value;
  return ms <= now;
}

/** The panel a preview address names (`/dynamic-report/preview/{panelId}`), '' when it names none. */
export function previewPanelId(pathname: string): string {
  const m = /^\/dynamic-report\/preview(?:\/(.*))?$/.exec(pathname);
  return m ? decodeURIComponent((m[1] || '').replace(/\/+$/, '')) : '';
}
