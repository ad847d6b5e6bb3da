/**
 * The shell's first calls, started by the entry script while the shared libraries and the shell's own
 * scripts download: on a cold signed-in load the answers are waiting when the shell asks for them, instead
 * of the shell asking only once its scripts have run (a waterfall of three round trips after half a
 * second of script loading).
 *
 * This module is part of the entry chunk, so it may not import a shared module (the SDK, React): it reads
 * the session cookie, language and system itself. Each answer is handed out once, to a GET of the same URL
 * with the same token, language and system code; any other request goes to the network as usual, and what
 * is left when the shell has booted is dropped.
 */

const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'];
const FALLBACK_LOCALE = 'zh-cn';
const DEFAULT_SYSTEM = 'iotAutho';
const FLAGS = ['SHOW_HELPCENTER', 'SHOW_BPM', 'HIDE_THEME_CONTROL', 'DEFAULT_THEMECOLOR'];

interface EarlyCalls {
  calls: Map<string, Promise<Response>>;
  headers: Record<string, string>;
}

let early: EarlyCalls | undefined;

function cookie(name: string): string {
  const found = document.cookie.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

function storedSystemCode(): string {
  try {
    const item = JSON.parse(localStorage.getItem('atrium.systemCode') || 'null');
    if (item && typeof item === 'object' && 'v' in item && !(item.e && item.e < Date.now())) return String(item.v || '');
  } catch {
    /* nothing stored */
  }
  return '';
}

function normalise(value: string): string {
  const v = value.toLowerCase().replace('_', '-').replace('#', '-');
  return LOCALES.includes(v) ? v : FALLBACK_LOCALE;
}

/** The shell's boot calls (GET, no body) and the shell's translations, in the URL form the SDK builds. */
export function earlyUrls(locale: string, systemCode: string): { api: string[]; i18n: string[] } {
  const flags = FLAGS.map((key) => `/api/base/server-config/get-value-by-key?configKey=${key}`);
  return {
    api: [
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
  const systemCode = storedSystemCode() || DEFAULT_SYSTEM;
  const headers: Record<string, string> = { language: locale.replace(/-/g, '#'), systemCode, loginForm: 'PC', authorization: token };
  const refresh = cookie('Atrium-Refresh-Token');
  if (refresh) headers.refreshAuthorization = refresh;
  const urls = earlyUrls(locale, systemCode);
  const calls = new Map<string, Promise<Response>>();
  for (const url of urls.api) {
    const controllerURL = url.replace(/^\/api\/[^/]+/, '').split('?')[0];
    calls.set(url, fetch(url, { headers: { ...headers, controllerURL }, credentials: 'same-origin' }));
  }
  for (const url of urls.i18n) calls.set(url, fetch(url, { credentials: 'same-origin' }));
  for (const call of calls.values()) call.catch(() => undefined);
  early = { calls, headers };
  return true;
}

/** The early answer for this request, once; undefined when there is none or the request differs. */
export function takeEarly(url: string, init?: RequestInit): Promise<Response> | undefined {
  const call = early?.calls.get(url);
  if (!early || !call || (init?.method && init.method !== 'GET') || init?.body) return undefined;
  const sent = (init?.headers || {}) as Record<string, string>;
  if (url.startsWith('/api/') && ['authorization', 'language', 'systemCode'].some((h) => sent[h] !== early!.headers[h])) {
    return undefined;
  }
  early.calls.delete(url);
  return call;
}

/** Drops what the shell did not ask for: later calls must reach the server. */
export function endEarlyCalls(): void {
  early = undefined;
}

/** `fetch` that serves the early answers first. */
export function earlyFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return takeEarly(String(input), init) ?? fetch(input, init);
}
