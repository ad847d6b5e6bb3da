/**
 * The shell's first calls, started by the entry script while the shared libraries and the shell's own
 * scripts download: on a cold signed-in load the answers are waiting when the shell asks for them, instead
 * of the shell asking only once its scripts have run (a waterfall of three round trips after half a
 * second of script loading).
 *
 * The calls that need the user's tenant (the system's settings) go out with the tenant remembered from
 * the last visit, and the assistant's switch (a POST) with the body the shell sends: on a cold load they
 * no longer wait for the user's answer.
 *
 * This module is part of the entry chunk, so it may not import a shared module (the SDK, React): it reads
 * the session cookie, language, system and remembered tenant itself. Each answer is handed out once, to a
 * request of the same method, URL and body with the same token, language and system code; any other
 * request (another tenant, say) goes to the network as usual, and what is left when the shell has booted
 * is dropped.
 */

const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'];
const FALLBACK_LOCALE = 'zh-cn';
const DEFAULT_SYSTEM = 'iotAutho';
const FLAGS = ['SHOW_HELPCENTER', 'SHOW_BPM', 'HIDE_THEME_CONTROL', 'DEFAULT_THEMECOLOR', 'SHOW_REQUIREMENT_QR'];

/** POST calls made early: URL and the body the SDK sends (`{params: ...}`). */
export const EARLY_POSTS: readonly (readonly [url: string, body: string])[] = [
  ['/api/base/aigc/enable', JSON.stringify({ params: {} })],
];

interface EarlyCalls {
  calls: Map<string, Promise<Response>>;
  headers: Record<string, string>;
}

let early: EarlyCalls | undefined;

/** The path prefix the platform is served under, from the page's `<base href>` ('' at a site's root), as
 * the SDK's `basePath` reads it: the answers are kept under the platform's own paths, asked for under it. */
function base(): string {
  return (document.querySelector?.('base')?.getAttribute('href') || '/').replace(/\/+$/, '');
}
const asked = (path: string) => (path.startsWith('/') && !path.startsWith('//') ? base() + path : path);
function own(url: string): string {
  const prefix = base();
  return prefix && url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : url;
}

function cookie(name: string): string {
  const found = document.cookie.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

/** A value the SDK's storage keeps (`{v, e}`: value and expiry), undefined when absent or expired. */
function stored(key: string): unknown {
  try {
    const item = JSON.parse(localStorage.getItem(key) || 'null');
    if (item && typeof item === 'object' && 'v' in item && !(item.e && item.e < Date.now())) return item.v;
  } catch {
    /* nothing stored */
  }
  return undefined;
}

function storedTenantId(): string {
  const user = stored('atrium.user') as { tenantId?: unknown } | undefined;
  return user?.tenantId !== undefined && user?.tenantId !== null ? String(user.tenantId) : '';
}

/** The key an early call is kept under: its URL, and for a POST the method and body too. */
function callKey(url: string, method = 'GET', body?: unknown): string {
  return method === 'GET' ? url : `${method} ${url} ${String(body)}`;
}

function normalise(value: string): string {
  const v = value.toLowerCase().replace('_', '-').replace('#', '-');
  return LOCALES.includes(v) ? v : FALLBACK_LOCALE;
}

/** The shell's boot calls (GET, no body) and the shell's translations, in the URL form the SDK builds; the
 * system's settings only when the tenant is known. */
export function earlyUrls(locale: string, systemCode: string, tenantId = ''): { api: string[]; i18n: string[] } {
  const flags = FLAGS.map((key) => `/api/base/server-config/get-value-by-key?configKey=${key}`);
  const setting = tenantId
    ? [`/api/base/base-tenant-system/find-tenant-defined?${new URLSearchParams({ systemCode, tenantId })}`]
    : [];
  return {
    api: [
      ...setting,
      '/api/base/base-user/get-login-user',
      '/api/kernel/manifest',
      `/api/base/base-rolemenu/find-user-menus?systemCode=${encodeURIComponent(systemCode)}`,
      '/api/base/base-user/check-pwd-login',
      '/api/base/tracking-web-page/enable',
      '/api/base/grayscale/rule/myid',
      ...flags,
    ],
    i18n: Array.from(new Set([`/i18n/${locale}/shell.json`, `/i18n/${FALLBACK_LOCALE}/shell.json`])),
  };
}

/** Starts the calls when a session cookie is there and the page is not handing over a token of its own;
 * answers whether it did. */
export function startEarlyCalls(): boolean {
  const search = new URLSearchParams(window.location.search);
  const token = cookie('Atrium-Token');
  if (!token || search.has('token') || search.has('authorization')) return false;
  const locale = normalise(search.get('lang') || cookie('language') || FALLBACK_LOCALE);
  const systemCode = String(stored('atrium.systemCode') || '') || DEFAULT_SYSTEM;
  const headers: Record<string, string> = { language: locale.replace(/-/g, '#'), systemCode, loginForm: 'PC', authorization: token };
  const refresh = cookie('Atrium-Refresh-Token');
  if (refresh) headers.refreshAuthorization = refresh;
  const urls = earlyUrls(locale, systemCode, storedTenantId());
  const calls = new Map<string, Promise<Response>>();
  const controllerURL = (url: string) => url.replace(/^\/api\/[^/]+/, '').split('?')[0];
  for (const url of urls.api) {
    calls.set(url, fetch(asked(url), { headers: { ...headers, controllerURL: controllerURL(url) }, credentials: 'same-origin' }));
  }
  for (const [url, body] of EARLY_POSTS) {
    const postHeaders = { ...headers, controllerURL: controllerURL(url), 'Content-Type': 'application/json' };
    calls.set(callKey(url, 'POST', body), fetch(asked(url), { method: 'POST', body, headers: postHeaders, credentials: 'same-origin' }));
  }
  for (const url of urls.i18n) calls.set(url, fetch(asked(url), { credentials: 'same-origin' }));
  for (const call of calls.values()) call.catch(() => undefined);
  early = { calls, headers };
  return true;
}

/** The early answer for this request, once; undefined when there is none or the request differs. */
export function takeEarly(url: string, init?: RequestInit): Promise<Response> | undefined {
  const method = init?.method || 'GET';
  if (method === 'GET' && init?.body) return undefined;
  const key = callKey(url, method, init?.body);
  const call = early?.calls.get(key);
  if (!early || !call) return undefined;
  const sent = (init?.headers || {}) as Record<string, string>;
  if (url.startsWith('/api/') && ['authorization', 'language', 'systemCode'].some((h) => sent[h] !== early!.headers[h])) {
    return undefined;
  }
  early.calls.delete(key);
  return call;
}

/** Drops what the shell did not ask for: later calls must reach the server. */
export function endEarlyCalls(): void {
  early = undefined;
}

/** `fetch` that serves the early answers first (kept by the platform's own paths, without the path prefix). */
export function earlyFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (typeof input !== 'string') return fetch(input, init);
  const path = own(input);
  return takeEarly(path, init) ?? fetch(asked(path), init);
}
