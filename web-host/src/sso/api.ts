import { local, request } from '@atrium/sdk';

/** Which tenant's sign-in page this is: `tenantId` from the address, else the site's host name. */
export interface Where {
  tenantId?: string | number;
  domainName?: string;
}

/** Domain level (spec 9, default 2): how many trailing labels of the host name name the tenant; a
 * deployment may set `window.ATRIUM_DOMAIN_LEVEL`. An IP address or a shorter host name is kept whole. */
export function tenantDomain(hostname: string, level = 2): string {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (/^\d+(\.\d+){3}$/.test(host) || host.includes(':') || !(level > 0)) return host;
  const labels = host.split('.');
  return labels.length > level ? labels.slice(-level).join('.') : host;
}

function domainLevel(): number {
  const configured = Number((window as { ATRIUM_DOMAIN_LEVEL?: unknown }).ATRIUM_DOMAIN_LEVEL);
  return Number.isInteger(configured) && configured > 0 ? configured : 2;
}

export function whereFrom(query: URLSearchParams): Where {
  const tenantId = query.get('tenantId');
  return tenantId ? { tenantId } : { domainName: tenantDomain(window.location.hostname, domainLevel()) };
}

/** A sign-in mode a plugin offers (GET /api/third/login-types). */
export interface LoginType {
  type: string;
  provider: string;
  name: string;
  label?: string;
  modes: ('redirect' | 'qr' | 'inapp')[];
  icon?: string;
  loginUrl?: string;
  corpId?: string;
  agentId?: string;
  jsapiUrl?: string;
}

export interface SignInAnswer extends Record<string, any> {
  authorization: string;
  'refresh-authorization': string;
  portalType?: string;
  ssoType?: string;
  urlLogin?: string;
  urlLogout?: string;
  domainName?: string;
  ssoToken?: string;
  ssoRefreshToken?: string;
  portalCode?: string;
  redirect?: string;
}

export interface Started {
  url: string;
  provider: string;
  type: string;
  mode: string;
}

/** Code of an answer asking the person to link their identity to an account with a code. */
export const LINK_NEEDED = 1010;

const silent = { silent: true } as const;

export function loginTypes(where: Where): Promise<LoginType[]> {
  return request<LoginType[]>('/api/third/login-types', { params: { ...where }, ...silent });
}

export function startSignIn(provider: string, where: Where, mode = 'redirect', returnTo = ''): Promise<Started> {
  return request<Started>('/api/third/sso/start', { method: 'POST', data: { provider, mode, returnTo, ...where }, ...silent });
}

export function finishSignIn(params: Record<string, string>): Promise<SignInAnswer> {
  return request<SignInAnswer>('/api/third/sso/callback', { method: 'POST', data: params, ...silent });
}

export function cloudUrl(where: Where, provider = '', returnTo = ''): Promise<Started> {
  return request<Started>('base/sso/other-url', { params: { provider, returnTo, ...where }, ...silent });
}

export function cloudTokenByCode(params: Record<string, string>): Promise<SignInAnswer> {
  return request<SignInAnswer>('base/sso/token-by-code', { params, ...silent });
}

export function cloudRefresh(domainName: string, ssoToken: string, ssoRefreshToken: string): Promise<SignInAnswer> {
  return request<SignInAnswer>('base/sso/token', { params: { domainName, ssoToken, ssoRefreshToken }, ...silent });
}

export async function cloudLogout(domain: string, ssoToken: string, ssoRefreshToken: string): Promise<string | undefined> {
  const data = await request<{ url?: string }>('base/sso/logout-ssoapi', {
    method: 'POST', data: { domain, ssoToken, ssoRefreshToken }, ...silent,
  });
  return data?.url;
}

export function dingtalkInfo(tenantDomain: string): Promise<LoginType & { tenantId: number }> {
  return request('/api/third/auth-dingtalk-login/dt-info-byDomain', { params: { tenantDomain }, ...silent });
}

export function dingtalkQrUrl(tenantDomain: string, returnTo = ''): Promise<Started> {
  return request<Started>('/api/third/auth-dingtalk-login/qr-url', { params: { tenantDomain, returnTo }, ...silent });
}

export function wecomLoginUrl(tenantDomain: string, mode: 'inapp' | 'qr', returnTo = ''): Promise<Started> {
  return request<Started>('/api/third/auth-wx-login/login-url', { params: { tenantDomain, mode, returnTo }, ...silent });
}

export function wecomInfo(tenantDomain: string): Promise<LoginType & { tenantId: number }> {
  return request('/api/third/auth-wx-login/wxcp-info-byDomain', { params: { tenantDomain }, ...silent });
}

/** Sign-in helper answers are kept 300 seconds: a page reloaded in the chat app reuses them. */
const HELPER_SECONDS = 300;
const HELPER_KEY = 'atrium.sso.helper';

async function helper(key: string, call: () => Promise<SignInAnswer>): Promise<SignInAnswer> {
  const cached = local.get<{ key: string; at: number; data: SignInAnswer }>(HELPER_KEY);
  if (cached && cached.key === key && Date.now() - cached.at < HELPER_SECONDS * 1000) return cached.data;
  const data = await call();
  local.set(HELPER_KEY, { key, at: Date.now(), data }, HELPER_SECONDS / 86400);
  return data;
}

export function clearHelperCache(): void {
  local.remove(HELPER_KEY);
}

export function dingtalkInApp(code: string, corpId: string, tenantDomain = ''): Promise<SignInAnswer> {
  return helper(`dt:${corpId}:${code}`, () =>
    request<SignInAnswer>('/api/third/auth-dingtalk-login/login', { params: { code, corpId, tenantDomain }, ...silent }));
}

export function dingtalkConsole(code: string, corpId: string): Promise<SignInAnswer> {
  return helper(`dtsso:${corpId}:${code}`, () =>
    request<SignInAnswer>('/api/third/auth-dingtalk-login/sso/login', { params: { code, corpId }, ...silent }));
}

export function dingtalkScan(code: string, state: string): Promise<SignInAnswer> {
  return helper(`dtscan:${state}`, () =>
    request<SignInAnswer>('/api/third/auth-dingtalk-login/scanCode/login', { params: { code, state }, ...silent }));
}

export function wecomCallback(code: string, state: string): Promise<SignInAnswer> {
  return helper(`wx:${state}`, () =>
    request<SignInAnswer>('/api/third/auth-wx-login/callback', { params: { code, state }, ...silent }));
}

export function sendLinkCode(channel: 'sms' | 'email', target: string, bindTicket: string): Promise<void> {
  const path = channel === 'sms' ? 'base/base-user/send-sso-validator-code' : 'base/base-user/send-sso-email-validator-code';
  return request<void>(path, { params: { [channel === 'sms' ? 'phone' : 'email']: target, bindTicket }, ...silent });
}

export function linkByCode(bindTicket: string, channel: 'sms' | 'email', target: string, code: string): Promise<SignInAnswer> {
  return request<SignInAnswer>('/api/third/sso/bind', { method: 'POST', data: { bindTicket, channel, target, code }, ...silent });
}
