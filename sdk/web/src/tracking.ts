/**
 * Usage tracking (spec reports.md 3.9 and 7.4): micro-app loads (type 1), page visits with stay and
 * render time (type 2) and clicks on elements marked for tracking (type 3), batched and sent to the
 * `log` service when the page is hidden, every few seconds while it is shown, or once a batch is full.
 *
 * Records are sent only when signed in and the tracking flag is on, never on the sign-in page, open
 * routes or whitelisted paths, nor on the internal network. Failures are silent: tracking never
 * disturbs the page. A page's last batch goes out with a `keepalive` request, which, unlike
 * `navigator.sendBeacon`, can carry the authorization header (used when `fetch` has no keepalive).
 *
 * Mark an element for click tracking with `data-track="name"` (and optionally `data-track-code`);
 * button-permission buttons carry `data-button-code` and are tracked too.
 *
 * It is imported as `@atrium/sdk/tracking`, apart from the SDK's index, so that the first page's
 * script does not carry it: the host loads it once the first page is drawn.
 */
import { appPath, appUrl } from './base';
import { bus } from './events';
import { globalSingleton } from './global';
import { buildHeaders, getRequestConfig, isOpenRoute, resolveUrl } from './request';
import { session } from './session';

export const TRACK_APP_LOAD = 1;
export const TRACK_PAGE_VISIT = 2;
export const TRACK_BUTTON_CLICK = 3;
const PAGE_URL = 'log/tracking-web-page/tracking';
const APP_URL = 'log/tracking-web-server/tracking';
const BATCH = 20;
const INTERVAL_MS = 5000;
const REMOTE_ENTRY = /\/plugins\/([^/]+)\/[^/]*remoteEntry[^/]*\.js/;

export type TrackRecord = Record<string, string | number | undefined>;

export interface TrackingOptions {
  /** Whether the tracking flag (`/tracking-web-page/enable`) is on; read each time records are sent. */
  enabled: () => boolean;
  /** Path prefixes never tracked (the sign-in page and open routes never are). */
  whitelist?: string[];
  /** True on the internal network, where nothing is sent (default: `window.ATRIUM_INTERNAL_NETWORK`). */
  internal?: () => boolean;
  systemName?: () => string;
  version?: string;
}

function browser(): { browserName: string; browserVersion: string; osName: string } {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const found = /(Edg|Firefox|Chrome|Safari)\/([\d.]+)/.exec(ua);
  const names: Record<string, string> = { Edg: 'Edge', Firefox: 'Firefox', Chrome: 'Chrome', Safari: 'Safari' };
  const os = /Windows/.test(ua) ? 'Windows' : /Mac OS/.test(ua) ? 'macOS' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Linux/.test(ua) ? 'Linux' : '';
  return { browserName: found ? names[found[1]] : '', browserVersion: found ? found[2] : '', osName: os };
}

class Tracker {
  private options: TrackingOptions | null = null;
  private pages: TrackRecord[] = [];
  private apps: TrackRecord[] = [];
  private current: { path: string; name: string; code: string; menuId: string; at: number; render: number } | null = null;
  private seenRemotes = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private stops: (() => void)[] = [];

  /** Start recording (the host calls this once after sign-in); answers a function that stops it. */
  start(options: TrackingOptions): () => void {
    this.stop();
    this.options = options;
    const onRoute = (p: unknown) => this.page((p as { path?: string; menuId?: string | number }) || {});
    this.stops.push(bus.on('route:changed', onRoute));
    const onClick = (e: Event) => this.onClick(e);
    const onHide = () => this.flush(true);
    const onVisibility = () => document.visibilityState === 'hidden' && this.flush(true);
    document.addEventListener('click', onClick, true);
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    this.stops.push(() => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    });
    this.observeRemotes();
    if (!this.current) this.page({ path: appPath(window.location.pathname), menuId: getRequestConfig().page?.menuId });
    this.timer = setInterval(() => this.flush(false), INTERVAL_MS);
    return () => this.stop();
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private common(): TrackRecord {
    const profile = session.getSnapshot().profile as { tenantId?: string | number; userId?: string | number };
    return {
      tenantId: profile?.tenantId, userId: profile?.userId, systemCode: session.getSystemCode(),
      systemName: this.options?.systemName?.() || '', timestamp: Date.now(), version: this.options?.version || '',
      screenWidth: window.screen?.width || 0, screenHeight: window.screen?.height || 0, ...browser(),
    };
  }

  private allowed(path: string = appPath(window.location.pathname)): boolean {
    const o = this.options;
    if (!o || !session.getToken()) return false;
    if (path === '/login' || isOpenRoute(path)) return false;
    if ((o.whitelist || []).some((p) => path === p || path.startsWith(`${p}/`))) return false;
    return true;
  }

  /** A micro-app (remote) finished loading. */
  appLoaded(code: string, loadTime: number, name: string = code): void {
    if (!this.options || this.seenRemotes.has(code)) return;
    this.seenRemotes.add(code);
    this.apps.push({ ...this.common(), eventType: TRACK_APP_LOAD, microAppCode: code, microAppName: name, loadTime: Math.round(loadTime) });
    if (this.apps.length >= BATCH) this.flush(false);
  }

  /** The address changed: the page left is recorded with its stay time. */
  page(route: { path?: string; menuId?: string | number }): void {
    this.closePage();
    const path = route.path || appPath(window.location.pathname);
    const page = getRequestConfig().page || {};
    const started = performance.now();
    const entry = { path, name: page.pageName || path, code: String(page.menuId ?? route.menuId ?? ''), menuId: String(route.menuId ?? ''), at: Date.now(), render: 0 };
    this.current = entry;
    requestAnimationFrame(() => requestAnimationFrame(() => { entry.render = Math.round(performance.now() - started); }));
  }

  private closePage(): void {
    const c = this.current;
    this.current = null;
    if (!c || !this.allowed(c.path)) return;
    this.pages.push({
      ...this.common(), eventType: TRACK_PAGE_VISIT, trackType: 'page', routePath: c.path, routeName: c.name,
      routeCode: c.code || c.path, menuId: c.menuId, pageStayTime: Date.now() - c.at, pageRenderTime: c.render,
    });
    if (this.pages.length >= BATCH) this.flush(false);
  }

  /** Record a click by hand (elements marked with data-track are recorded on their own). */
  click(buttonName: string, buttonCode = ''): void {
    const path = appPath(window.location.pathname);
    if (!this.allowed(path)) return;
    const page = getRequestConfig().page || {};
    this.pages.push({
      ...this.common(), eventType: TRACK_BUTTON_CLICK, trackType: 'button', buttonName: buttonName.slice(0, 128),
      buttonCode, routePath: path, routeName: page.pageName || path, routeCode: String(page.menuId ?? path), menuId: String(page.menuId ?? ''),
    });
    if (this.pages.length >= BATCH) this.flush(false);
  }

  private onClick(e: Event): void {
    const target = e.target as Element | null;
    const el = target?.closest?.('[data-track],[data-button-code]') as HTMLElement | null;
    if (!el) return;
    const name = el.dataset.track || (el.textContent || '').trim() || el.dataset.buttonCode || '';
    if (name) this.click(name, el.dataset.trackCode || el.dataset.buttonCode || '');
  }

  private observeRemotes(): void {
    if (typeof PerformanceObserver === 'undefined') return;
    const take = (entries: PerformanceEntryList) => {
      for (const entry of entries) {
        const m = REMOTE_ENTRY.exec(entry.name);
        if (m) this.appLoaded(m[1], entry.duration);
      }
    };
    try {
      take(performance.getEntriesByType('resource'));
      const observer = new PerformanceObserver((list) => take(list.getEntries()));
      observer.observe({ type: 'resource' });
      this.stops.push(() => observer.disconnect());
    } catch {
      /* no resource timing: loads are not recorded */
    }
  }

  /** Send what is queued; `leaving` also records the open page's stay so far. */
  flush(leaving: boolean): void {
    if (leaving && this.current) {
      const c = this.current;
      this.closePage();
      this.current = { ...c, at: Date.now() };
    }
    const o = this.options;
    const pages = this.pages.splice(0);
    const apps = this.apps.splice(0);
    if (!o || !session.getToken() || !o.enabled() || onInternalNetwork(o)) return;
    for (let i = 0; i < pages.length; i += BATCH * 2) send(PAGE_URL, pages.slice(i, i + BATCH * 2));
    if (apps.length) send(APP_URL, apps);
  }
}

/** The host may say so (`internal`); otherwise a deployment marks its internal network by setting
 * `window.ATRIUM_INTERNAL_NETWORK = true` before the shell starts. */
function onInternalNetwork(o: TrackingOptions): boolean {
  if (o.internal) return o.internal();
  return !!(globalThis as { ATRIUM_INTERNAL_NETWORK?: boolean }).ATRIUM_INTERNAL_NETWORK;
}

function send(path: string, records: TrackRecord[]): void {
  if (!records.length) return;
  const url = resolveUrl(path);
  const body = JSON.stringify({ params: records });
  try {
    void fetch(appUrl(url), {
      method: 'POST', keepalive: true, body,
      headers: { ...buildHeaders(url), 'Content-Type': 'application/json' },
    }).catch(() => undefined);
  } catch {
    try {
      navigator.sendBeacon?.(appUrl(url), new Blob([body], { type: 'application/json' }));
    } catch {
      /* failures are silent */
    }
  }
}

/** The page's one tracker. */
export const tracking: Tracker = globalSingleton('tracking', () => new Tracker());
