import {
  bus, permissions, request, resetNotLoggedIn, session, setServices, configureRequest,
  type Manifest, type MenuItem, type UserInfo,
} from '@atrium/sdk';
import { requirementsQrSwitch } from './config';
import { endEarlyCalls } from './early';
import { buildMenuIndex } from './menus';
import { resetMenuFetch } from './layout/menuFetch';
import { forgetRoutes } from './layout/routeMemory';
import { registerManifest } from './plugins/registry';
import { store, type Favourite, type PasswordInfo, type SystemSetting } from './store';

/** Every shell call in one place (kernel README). */

export function fetchSetting(systemCode = session.getSystemCode(), tenantId?: string | number): Promise<SystemSetting> {
  return request<SystemSetting>('base/base-tenant-system/find-tenant-defined', { params: { systemCode, tenantId }, silent: true });
}

async function flag(configKey: string, fallback: boolean): Promise<boolean> {
  try {
    const value = await request<unknown>('base/server-config/get-value-by-key', { params: { configKey }, silent: true });
    if (value === null || value === undefined || value === '') return fallback;
    return value === true || String(value).toLowerCase() === 'true' || String(value) === '1';
  } catch {
    return fallback;
  }
}

async function configValue(configKey: string): Promise<string | undefined> {
  try {
    const value = await request<unknown>('base/server-config/get-value-by-key', { params: { configKey }, silent: true });
    return value ? String(value) : undefined;
  } catch {
    return undefined;
  }
}

async function boolCall(path: string, method: 'GET' | 'POST'): Promise<boolean> {
  try {
    const value = await request<unknown>(path, { method, data: method === 'POST' ? {} : undefined, silent: true });
    return value === true || value === 1 || String(value) === 'true';
  } catch {
    return false;
  }
}

type MenusAnswer = { menus: MenuItem[]; defaultMenu?: any } | MenuItem[];

function fetchMenus(): Promise<MenusAnswer> {
  return request<MenusAnswer>('base/base-rolemenu/find-user-menus', { params: { systemCode: session.getSystemCode() } });
}

export async function loadMenus(): Promise<void> {
  applyMenus(await fetchMenus());
}

function applyMenus(data: MenusAnswer): void {
  const menus = Array.isArray(data) ? data : data?.menus || [];
  const defaultMenu = Array.isArray(data) ? null : data?.defaultMenu || null;
  const index = buildMenuIndex(menus, store.get().flags.chat);
  resetMenuFetch();
  store.set({ menus: index.tree, index, defaultMenu });
  bus.emit('menus:loaded', index.tree);
}

export async function loadManifest(): Promise<void> {
  try {
    const manifest = await request<Manifest>('/api/kernel/manifest', { silent: true });
    // `unavailable`: plugins that did not load (or were uninstalled), for the not-installed page at their prefixes
    const unavailable = (manifest as { unavailable?: unknown } | undefined)?.unavailable;
    const safe: Manifest = {
      sdkVersion: manifest?.sdkVersion,
      services: manifest?.services || {},
      plugins: manifest?.plugins || [],
      ...(Array.isArray(unavailable) ? { unavailable } : {}),
    };
    setServices(safe.services);
    try {
      registerManifest(safe);
    } catch (err) {
      console.error('[atrium] registering remotes failed', err);
    }
    store.set({ manifest: safe });
  } catch {
    store.set({ manifest: { services: {}, plugins: [] } });
  }
}

export async function loadFavourites(): Promise<void> {
  try {
    const list = await request<Favourite[] | { list?: Favourite[] }>('portal/portal-favourite/find-list-user', { method: 'POST', data: {}, silent: true });
    store.set({ favourites: Array.isArray(list) ? list : list?.list || [] });
  } catch {
    store.set({ favourites: [] });
  }
}

export async function loadGreyHeaders(): Promise<void> {
  try {
    const data = await request<{ headers?: { header: string; value: string }[] }>('base/grayscale/rule/myid', { silent: true });
    const headers: Record<string, string> = {};
    for (const h of data?.headers || []) if (h.header) headers[h.header] = String(h.value ?? '');
    configureRequest({ extraHeaders: headers });
  } catch {
    /* no grey rules */
  }
}

/** The navigation guard's load (spec 4): user, password info, system setting, help flags, menus. */
export async function bootstrapSession(): Promise<void> {
  try {
    await loadSession();
  } finally {
    endEarlyCalls();
  }
}

async function loadSession(): Promise<void> {
  resetNotLoggedIn();
  // asked at once, applied when the flags it depends on are known
  const menus = fetchMenus();
  menus.catch(() => undefined);
  const user = await request<UserInfo>('base/base-user/get-login-user');
  session.setUser(user);
  permissions.superAdmin = user?.isSuperAdmin === 1 || user?.isSuperAdmin === true;
  const [pwd, setting, help, bpm, chat, tracking, hideTheme, defaultColor, serverQr] = await Promise.all([
    request<PasswordInfo>('base/base-user/check-pwd-login', { silent: true }).catch(() => undefined),
    fetchSetting(session.getSystemCode(), user?.tenantId).catch(() => undefined),
    flag('SHOW_HELPCENTER', true),
    flag('SHOW_BPM', true),
    boolCall('base/aigc/enable', 'POST'),
    boolCall('base/tracking-web-page/enable', 'GET'),
    flag('HIDE_THEME_CONTROL', false),
    configValue('DEFAULT_THEMECOLOR'),
    flag('SHOW_REQUIREMENT_QR', false),
    loadManifest(),
    loadGreyHeaders(),
  ]);
  const stored = store.get().setting;
  const configuredColor = setting?.themeColor || defaultColor || undefined;
  const requirementsQr = requirementsQrSwitch() ?? serverQr;
  store.set({
    user,
    passwordInfo: pwd,
    passwordDialog: pwd?.pop ? (pwd.optType === 2 ? 'closable' : 'forced') : false,
    setting: setting || stored,
    flags: { help, bpm, chat, tracking, hideThemeControl: hideTheme, configuredColor, requirementsQr },
  });
  applyMenus(await menus);
  void loadFavourites();
  store.set({ ready: true, bootError: undefined });
}

/** Signs out: the server revokes the session's tokens, then the page forgets them. `revoked`: the server
 * has revoked them already (a password change), so only the page signs out; asking the server with dead
 * tokens would answer "sign-in expired" and show that message after a change that succeeded. */
export async function logout({ revoked = false }: { revoked?: boolean } = {}): Promise<void> {
  if (!revoked) {
    try {
      await request('base/base-user/logout', { silent: true, timeout: 5000 });
    } catch {
      /* signing out locally anyway */
    }
  }
  bus.emit('watermark:clear');
  bus.emit('logout');
  session.clear();
  permissions.clear();
  forgetRoutes();
  store.reset();
}

/** Tenant switch: new tokens, tabs reset, menus reloaded (caller goes to /home). */
export async function switchTenant(tenantId: string | number): Promise<void> {
  const systemCode = session.getSystemCode();
  const data = await request<Record<string, any>>('base/base-user/change-tenant', { method: 'POST', params: { tenantId, systemCode }, data: {} });
  session.setLifetimes(data);
  session.setTokens(data.authorization, data['refresh-authorization']);
  session.updateProfile({ tenantId: data.tenantId ?? tenantId });
  permissions.clear();
  store.set({ tabs: [], ready: false, menus: [], index: null });
  await bootstrapSession();
  bus.emit('tenant:switched', { tenantId });
}

export async function switchSystem(systemCode: string): Promise<void> {
  const data = await request<Record<string, any>>('base/base-user/going-system', { method: 'POST', params: { loginFrom: 'PC', systemCode }, data: {} });
  if (data && (data.authorization || data.token)) session.signIn(data);
  session.setSystemCode(systemCode);
  permissions.clear();
  store.set({ tabs: [], ready: false, menus: [], index: null });
  await bootstrapSession();
  bus.emit('system:switched', { systemCode });
}

export async function loadMenuNums(keys: string[]): Promise<void> {
  if (!keys.length) return;
  try {
    const nums = await request<Record<string, number>>('base/message-subscript/find-menu-num', { method: 'POST', data: { keys }, wrap: false, silent: true });
    store.set({ menuNums: nums || {} });
  } catch {
    /* counters stay as they were */
  }
}
