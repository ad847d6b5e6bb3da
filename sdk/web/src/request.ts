import { appPath, appUrl } from './base';
import { base64Utf8 } from './base64';
import { bus } from './events';
import { globalSingleton } from './global';
import { languageHeader, translate } from './i18n';
import { session } from './session';

/** The envelope of every JSON answer. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  status?: string;
}

export const SUCCESS_CODES = [800, 200];
export const NOT_LOGGED_IN = -1;

/** Routes open without a session (spec 2.1); -1 does not remember them as the return address. */
export const OPEN_ROUTES = [
  '/login', '/qrcode', '/authorize', '/sso/login', '/midea-login', '/third-login', '/wujie-bridge',
  '/qrcode-success', '/report/preview', '/sso/multi-login', '/platform-protocol', '/knowledge-details',
  '/third-party/receiveWxMsg',
];

export function isOpenRoute(pathname: string): boolean {
  return OPEN_ROUTES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Query string parameters. */
  params?: Record<string, unknown>;
  /** Body. A plain object is wrapped as `{params: data}` unless `wrap` is false. */
  data?: unknown;
  wrap?: boolean;
  /** Send the body form-encoded. */
  form?: boolean;
  headers?: Record<string, string>;
  /** Do not show the error message; the promise still rejects. */
  silent?: boolean;
  /** Resolve with the whole envelope instead of `data`. */
  raw?: boolean;
  /** Resolve with the response body as a Blob (downloads). */
  blob?: boolean;
  timeout?: number;
  signal?: AbortSignal;
  /** A not-signed-in answer is this call's own result (a token refresh tried), not a lost session to end. */
  signedOutAnswer?: boolean;
}

export class RequestError extends Error {
  code: number;
  data: unknown;
  status: number;
  constructor(message: string, code: number, status = 200, data: unknown = null) {
    super(message);
    this.name = 'RequestError';
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

/** What the page in front of the user is; sent with every request. */
export interface PageContext {
  menuId?: string | number;
  requestMenuUrl?: string;
  pageName?: string;
  pageEnName?: string;
}

export type Notify = (type: 'error' | 'warning' | 'success' | 'info', text: string) => void;

export interface RequestConfig {
  fetch: typeof fetch;
  /** Service base URLs: `base` → `/api/base`; a path `base/x` resolves to `/api/base/x`. */
  services: Record<string, string>;
  notify: Notify;
  navigate: (path: string) => void;
  location: { pathname: string; search: string; assign: (url: string) => void };
  setTimeout: (fn: () => void, ms: number) => unknown;
  page: PageContext;
  /** Grey-rule headers from `grayscale/rule/myid`. */
  extraHeaders: Record<string, string>;
  timeout: number;
  /** Delay before going to the login page when the session is lost (spec 9: 2000 ms). */
  loginRedirectDelay: number;
}

interface RequestState {
  config: RequestConfig;
  handlingLogout: boolean;
}

function defaultConfig(): RequestConfig {
  const hasWindow = typeof window !== 'undefined';
  return {
    fetch: (...args) => fetch(...args),
    services: { base: '/api/base', portal: '/api/portal', kernel: '/api/kernel' },
    notify: (type, text) => (type === 'error' ? console.error(text) : console.warn(text)),
    navigate: (path) => {
      if (hasWindow) window.location.assign(appUrl(path));
    },
    location: hasWindow
      ? { get pathname() { return appPath(window.location.pathname); }, get search() { return window.location.search; }, assign: (u: string) => window.location.assign(appUrl(u)) }
      : { pathname: '/', search: '', assign: () => undefined },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    page: {},
    extraHeaders: {},
    timeout: 120000,
    loginRedirectDelay: 2000,
  };
}

const state: RequestState = globalSingleton('request', () => ({ config: defaultConfig(), handlingLogout: false }));

/** The host sets navigation, messages, service URLs; tests replace fetch, location and timers. */
export function configureRequest(patch: Partial<RequestConfig>): RequestConfig {
  state.config = { ...state.config, ...patch };
  return state.config;
}

export function getRequestConfig(): RequestConfig {
  return state.config;
}

export function setPageContext(page: PageContext): void {
  state.config.page = page;
}

export function setServices(services: Record<string, string>): void {
  state.config.services = { ...state.config.services, ...services };
}

/** Resolves `base/base-user/login` through the service table; absolute paths pass through. */
export function resolveUrl(path: string): string {
  if (/^https?:\/\//.test(path) || path.startsWith('/')) return path;
  const [service, ...rest] = path.split('/');
  const baseUrl = state.config.services[service];
  if (baseUrl !== undefined) return `${baseUrl.replace(/\/$/, '')}/${rest.join('/')}`;
  return `/api/${path}`;
}

/** The spec's request headers (section 7). */
export function buildHeaders(path: string): Record<string, string> {
  const cfg = state.config;
  const page = cfg.page || {};
  const headers: Record<string, string> = {
    language: languageHeader(),
    systemCode: session.getSystemCode(),
    loginForm: 'PC',
    controllerURL: path.replace(/^\/?api\/[^/]+/, '').split('?')[0] || path,
  };
  const token = session.getToken();
  const refresh = session.getRefreshToken();
  if (token) headers.authorization = token;
  if (refresh) headers.refreshAuthorization = refresh;
  if (page.menuId !== undefined && page.menuId !== null && page.menuId !== '') headers.menuId = String(page.menuId);
  if (page.requestMenuUrl) headers.requestMenuUrl = page.requestMenuUrl;
  if (page.pageName) headers.pageName = base64Utf8(page.pageName);
  if (page.pageEnName) headers.pageEnName = base64Utf8(page.pageEnName);
  return { ...headers, ...cfg.extraHeaders };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function queryString(params?: Record<string, unknown>): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    search.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Stock message for a code or transport failure (spec 8), translated. */
export function stockMessage(code: number | 'timeout' | 'network'): string {
  switch (code) {
    case 'timeout':
      return translate('shell:error.timeout', 'The server request timed out');
    case 'network':
      return translate('shell:error.network', 'The server cannot be reached');
    case -1:
      return translate('shell:error.loginExpired', 'Your sign-in has expired, please sign in again');
    case 401:
      return translate('shell:error.tokenInvalid', 'The system token is invalid, please sign out and sign in again');
    case 403:
      return translate('shell:error.noPermission', 'You have no permission to access this');
    case 404:
      return translate('shell:error.notFound', 'The requested item was not found');
    default:
      return translate('shell:error.system', 'System exception, please contact the administrator');
  }
}

/** Code -1, HTTP 401 or a token-relay failure: the session is lost (spec 8). */
export async function handleNotLoggedIn(): Promise<void> {
  const cfg = state.config;
  if (state.handlingLogout) return;
  state.handlingLogout = true;
  const { pathname, search } = cfg.location;
  if (!isOpenRoute(pathname) && pathname !== '/portal' && pathname !== '/') session.rememberRedirect(pathname + search);
  bus.emit('watermark:clear');
  const user = session.user;
  const sso = session.sso;
  const finish = () => {
    state.handlingLogout = false;
  };
  const urlLogin = sso.urlLogin || (typeof user?.urlLogin === 'string' ? user.urlLogin : '');
  if (user?.portalType === 'sso' && urlLogin) {
    session.setSso({ portalType: 'sso', ssoType: user.ssoType, urlLogout: user.urlLogout, urlLogin });
    session.clear();
    cfg.location.assign(urlLogin);
    finish();
    return;
  }
  if (sso.domainName && sso.ssoToken && sso.ssoRefreshToken) {
    let url: string | undefined;
    try {
      const data = await request<string | { url?: string; redirectUrl?: string } | null>('base/sso/logout-ssoapi', {
        method: 'POST',
        data: { domain: sso.domainName, ssoToken: sso.ssoToken, ssoRefreshToken: sso.ssoRefreshToken },
        silent: true,
      });
      url = typeof data === 'string' ? data : data?.url || data?.redirectUrl;
    } catch {
      url = undefined;
    }
    session.clearSsoTokens();
    session.clear();
    cfg.location.assign(url || '/login');
    finish();
    return;
  }
  session.clear();
  cfg.notify('error', stockMessage(-1));
  cfg.setTimeout(() => {
    finish();
    if (!session.getToken()) cfg.navigate('/login');
  }, cfg.loginRedirectDelay);
}

/**
 * Whether a lost-session answer speaks for the session in front of the user: an answer to a request
 * sent under tokens since signed out or replaced by a new sign-in must not end the new session.
 */
function sessionStillCurrent(sentToken: string | undefined): boolean {
  return (session.getToken() || undefined) === (sentToken || undefined);
}

/** Resets the one-at-a-time guard of the -1 flow (tests; the host after a new sign-in). */
export function resetNotLoggedIn(): void {
  state.handlingLogout = false;
}

/** Stores renewed tokens from the response headers. */
function renewTokens(headers: Headers): void {
  const token = headers.get('authorization');
  const refresh = headers.get('refresh-authorization');
  if (token || refresh) session.setTokens(token, refresh);
}

/**
 * The request client: the spec's headers, `{params}` wrapping, envelope, token renewal, -1 handling
 * and translated error messages. Resolves with `data` (or the envelope with `raw`).
 */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const cfg = state.config;
  const method = options.method || (options.data !== undefined ? 'POST' : 'GET');
  const url = resolveUrl(path) + queryString(options.params);
  const headers: Record<string, string> = { ...buildHeaders(resolveUrl(path)), ...(options.headers || {}) };
  let body: BodyInit | undefined;
  if (options.data !== undefined && method !== 'GET') {
    if (typeof FormData !== 'undefined' && options.data instanceof FormData) {
      body = options.data;
    } else if (options.form && isPlainObject(options.data)) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = queryString(options.data).slice(1);
    } else {
      headers['Content-Type'] = 'application/json';
      const wrap = options.wrap !== false && isPlainObject(options.data) && !('params' in options.data);
      body = JSON.stringify(wrap ? { params: options.data } : options.data);
    }
  }
  const controller = new AbortController();
  const timeout = options.timeout ?? cfg.timeout;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  options.signal?.addEventListener('abort', () => controller.abort());
  let response: Response;
  try {
    response = await cfg.fetch(appUrl(url), { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
  } catch (err) {
    clearTimeout(timer);
    if (options.signal?.aborted) throw err;
    const kind = timedOut ? 'timeout' : 'network';
    const text = stockMessage(kind);
    if (!options.silent) cfg.notify('error', text);
    throw new RequestError(text, timedOut ? 408 : 0, 0);
  }
  clearTimeout(timer);
  renewTokens(response.headers);

  if (response.status === 401) {
    if (!options.signedOutAnswer && sessionStillCurrent(headers.authorization)) void handleNotLoggedIn();
    throw new RequestError(stockMessage(401), -1, 401);
  }
  if (options.blob && response.ok) {
    const type = response.headers.get('content-type') || '';
    if (!type.includes('application/json')) return (await response.blob()) as unknown as T;
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    const text = stockMessage(response.status >= 500 ? 500 : response.status);
    if (!options.silent) cfg.notify('error', text);
    throw new RequestError(text, response.status, response.status);
  }
  if (!envelope || typeof envelope !== 'object' || typeof envelope.code !== 'number') {
    if (response.ok) return envelope as unknown as T;
    const text = stockMessage(response.status);
    if (!options.silent) cfg.notify('error', text);
    throw new RequestError(text, response.status, response.status);
  }
  const relayFailure = response.status === 500 && /token ?relay/i.test(envelope.msg || '');
  if (envelope.code === NOT_LOGGED_IN || relayFailure) {
    if (!options.signedOutAnswer && sessionStillCurrent(headers.authorization)) void handleNotLoggedIn();
    throw new RequestError(envelope.msg || stockMessage(-1), -1, response.status, envelope.data);
  }
  if (SUCCESS_CODES.includes(envelope.code)) {
    if (path.includes('bpm/')) envelope.status = 'S';
    return (options.raw ? envelope : envelope.data) as T;
  }
  const text = envelope.msg || stockMessage(envelope.code);
  if (!options.silent) cfg.notify(envelope.code === 1004 ? 'warning' : 'error', text);
  throw new RequestError(text, envelope.code, response.status, envelope.data);
}

request.get = <T = unknown>(path: string, params?: Record<string, unknown>, options: RequestOptions = {}) =>
  request<T>(path, { ...options, method: 'GET', params });
request.post = <T = unknown>(path: string, data?: unknown, options: RequestOptions = {}) =>
  request<T>(path, { ...options, method: 'POST', data: data ?? {} });

/** Multipart upload of one file (`file` field); upload timeout 1,000,000 ms (spec 9). */
export function upload<T = unknown>(path: string, file: Blob, fields: Record<string, string> = {}, options: RequestOptions = {}): Promise<T> {
  const form = new FormData();
  form.append('file', file, (file as File).name || 'upload.png');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return request<T>(path, { timeout: 1000000, ...options, method: 'POST', data: form });
}

/** Saves a Blob as a file in the browser. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
