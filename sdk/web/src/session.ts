import { useSyncExternalStore } from 'react';
import { globalSingleton } from './global';
import { getCookie, local, removeCookie, setCookie } from './storage';

/** Profile fields kept in local storage after sign-in (spec 3, session user). */
export interface Profile {
  isSuperAdmin?: number | boolean;
  isAdmin?: number | boolean;
  userId?: string | number;
  tenantId?: string | number;
  tenantName?: string;
  userFullName?: string;
  lang?: string;
}

export interface SystemRef {
  systemCode: string;
  systemName: string;
  systemEnName?: string;
}

/** The current user as `get-login-user` returns it. */
export interface UserInfo extends Profile {
  account?: string;
  userHeadImgUrl?: string;
  portalType?: string;
  urlLogout?: string;
  ssoType?: string;
  staffNo?: string;
  mobile?: string;
  email?: string;
  department?: string;
  defaultSystemCode?: string;
  systems?: SystemRef[];
  [field: string]: unknown;
}

export interface SsoData {
  domainName?: string;
  ssoToken?: string;
  ssoRefreshToken?: string;
  portalType?: string;
  ssoType?: string;
  urlLogin?: string;
  urlLogout?: string;
  portalCode?: string;
}

/** The answer of login, going-system or a token refresh, as `session.signIn` reads it (the rest is the caller's). */
export interface SignInData extends Profile {
  authorization?: string | null;
  token?: string | null;
  'refresh-authorization'?: string | null;
  refreshToken?: string | null;
  [field: string]: unknown;
}

export interface SessionSnapshot {
  token?: string;
  refreshToken?: string;
  profile: Profile;
  user?: UserInfo;
  systemCode: string;
}

export const DEFAULT_SYSTEM_CODE = 'iotAutho';
export const PLATFORM_TENANT_ID = '-999';
export const TOKEN_COOKIE = 'Atrium-Token';
export const REFRESH_COOKIE = 'Atrium-Refresh-Token';
const PROFILE_KEY = 'atrium.profile';
const USER_KEY = 'atrium.user';
const SYSTEM_KEY = 'atrium.systemCode';
const SSO_KEY = 'atrium.sso';
const REDIRECT_KEY = 'atrium.redirect';
const LIFETIME_KEY = 'atrium.tokenMinutes';
const REFRESH_LIFETIME_KEY = 'atrium.refreshTokenMinutes';
/** The token cookie lasts the spec's one day at least; the server's token may end sooner and is renewed. */
const TOKEN_COOKIE_DAYS = 1;
const DEFAULT_REFRESH_MINUTES = 7 * 24 * 60;
/** Chat history and other per-user keys removed at sign-out. */
const PER_USER_KEYS = ['atrium.chatHistory', 'atrium.visitedTabs', 'atrium.buttons'];

type Listener = () => void;

class SessionStore {
  private listeners = new Set<Listener>();
  private snapshot: SessionSnapshot | null = null;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionSnapshot => {
    if (!this.snapshot) {
      this.snapshot = {
        token: this.getToken(),
        refreshToken: this.getRefreshToken(),
        profile: local.get<Profile>(PROFILE_KEY, {}) || {},
        user: local.get<UserInfo>(USER_KEY),
        systemCode: this.getSystemCode(),
      };
    }
    return this.snapshot;
  };

  private changed(): void {
    this.snapshot = null;
    for (const l of Array.from(this.listeners)) l();
  }

  getToken(): string | undefined {
    return getCookie(TOKEN_COOKIE) || undefined;
  }

  getRefreshToken(): string | undefined {
    return getCookie(REFRESH_COOKIE) || undefined;
  }

  /** Token lifetime in minutes (the server's configured value, default half a day). */
  get tokenMinutes(): number {
    return local.get<number>(LIFETIME_KEY, 720) || 720;
  }

  set tokenMinutes(minutes: number) {
    local.set(LIFETIME_KEY, minutes);
  }

  /** Refresh-token lifetime in minutes (the server's value): the refresh cookie lasts as long. */
  get refreshTokenMinutes(): number {
    return local.get<number>(REFRESH_LIFETIME_KEY, DEFAULT_REFRESH_MINUTES) || DEFAULT_REFRESH_MINUTES;
  }

  /** Keeps the lifetimes a sign-in or refresh answer carries (`tokenMinutes`, `refreshTokenMinutes`). */
  setLifetimes(data: Record<string, unknown>): void {
    if (typeof data.tokenMinutes === 'number' && data.tokenMinutes > 0) local.set(LIFETIME_KEY, data.tokenMinutes);
    if (typeof data.refreshTokenMinutes === 'number' && data.refreshTokenMinutes > 0) {
      local.set(REFRESH_LIFETIME_KEY, data.refreshTokenMinutes);
    }
  }

  setTokens(token?: string | null, refreshToken?: string | null): void {
    if (token) setCookie(TOKEN_COOKIE, token, Math.max(TOKEN_COOKIE_DAYS, this.tokenMinutes / 1440));
    if (refreshToken) setCookie(REFRESH_COOKIE, refreshToken, this.refreshTokenMinutes / 1440);
    this.changed();
  }

  /** Stores the answer of login, going-system or refresh: tokens in cookies, profile in local storage. */
  signIn(data: SignInData): void {
    this.setLifetimes(data);
    this.setTokens(data.authorization ?? data.token, data['refresh-authorization'] ?? data.refreshToken);
    const profile: Profile = {
      isSuperAdmin: data.isSuperAdmin,
      isAdmin: data.isAdmin,
      userId: data.userId,
      tenantId: data.tenantId,
      tenantName: data.tenantName,
      userFullName: data.userFullName,
      lang: data.lang,
    };
    const previous = local.get<Profile>(PROFILE_KEY, {}) || {};
    const given = Object.fromEntries(Object.entries(profile).filter(([, v]) => v !== undefined)) as Partial<Profile>;
    const merged: Profile = { ...previous, ...given };
    local.set(PROFILE_KEY, merged);
    this.changed();
  }

  get profile(): Profile {
    return this.getSnapshot().profile;
  }

  updateProfile(patch: Partial<Profile>): void {
    local.set(PROFILE_KEY, { ...this.profile, ...patch });
    this.changed();
  }

  get user(): UserInfo | undefined {
    return this.getSnapshot().user;
  }

  setUser(user: UserInfo | undefined): void {
    if (user) {
      local.set(USER_KEY, user);
      this.updateProfile({
        isSuperAdmin: user.isSuperAdmin,
        isAdmin: user.isAdmin,
        userId: user.userId,
        tenantId: user.tenantId,
        tenantName: user.tenantName,
        userFullName: user.userFullName,
      });
    } else {
      local.remove(USER_KEY);
      this.changed();
    }
  }

  getSystemCode(): string {
    return local.get<string>(SYSTEM_KEY) || DEFAULT_SYSTEM_CODE;
  }

  setSystemCode(code: string): void {
    local.set(SYSTEM_KEY, code);
    this.changed();
  }

  get sso(): SsoData {
    return local.get<SsoData>(SSO_KEY, {}) || {};
  }

  setSso(data: SsoData | undefined): void {
    if (data) local.set(SSO_KEY, { ...this.sso, ...data });
    else local.remove(SSO_KEY);
  }

  clearSsoTokens(): void {
    const { ssoToken: _a, ssoRefreshToken: _b, domainName: _c, ...rest } = this.sso;
    local.set(SSO_KEY, rest);
  }

  /** Remembers the address to return to after signing in again. */
  rememberRedirect(path: string): void {
    local.set(REDIRECT_KEY, path);
  }

  takeRedirect(): string | undefined {
    const value = local.get<string>(REDIRECT_KEY);
    local.remove(REDIRECT_KEY);
    return value || undefined;
  }

  isLoggedIn(): boolean {
    return !!this.getToken();
  }

  isSuperAdmin(): boolean {
    const v = this.profile.isSuperAdmin;
    return v === 1 || v === true || v === '1' as unknown;
  }

  /** Clears tokens, profile, user and per-user keys (the sign-out and not-logged-in paths). */
  clear(): void {
    removeCookie(TOKEN_COOKIE);
    removeCookie(REFRESH_COOKIE);
    local.remove(PROFILE_KEY);
    local.remove(USER_KEY);
    for (const key of PER_USER_KEYS) local.remove(key);
    try {
      sessionStorage.removeItem('atrium.buttonAuthority');
    } catch {
      /* no session storage */
    }
    this.changed();
  }
}

export const session: SessionStore = globalSingleton('session', () => new SessionStore());

/** React hook: the session snapshot, re-rendered on sign-in, token renewal, user and system changes. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}
