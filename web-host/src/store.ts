import { useSyncExternalStore } from 'react';
import { getCookie, local, setCookie, type Manifest, type MenuItem, type UserInfo } from '@atrium/sdk';
import type { MenuIndex } from './menus';
import type { HostTab } from './layout/tabView';

export type LayoutStyle = 'default' | 'compact';
export type OverallStyle = 'light' | 'dark' | 'one-stop';
export type MenuMode = 'hover' | 'sider' | 'inline';
export type NavbarTheme = 'default' | 'red' | 'sapphireBlue' | 'blue' | 'tangerine' | 'green' | 'orange';

export interface ThemeSettings {
  layout: LayoutStyle;
  style: OverallStyle;
  navbar: NavbarTheme;
  menuMode: MenuMode;
  /** Control (primary) colour. */
  themeColor: string;
}

export interface SystemSetting {
  systemLogo?: string;
  iconUrl?: string;
  systemTitle?: string;
  systemName?: string;
  systemEnName?: string;
  themeColor?: string;
}

export interface PasswordInfo {
  pop?: boolean | number;
  optType?: number;
  reason?: string;
  pwdTips?: string;
}

export interface Flags {
  help: boolean;
  bpm: boolean;
  chat: boolean;
  tracking: boolean;
  hideThemeControl: boolean;
  /** A theme colour configured by the tenant or the server (hides the control colour choice). */
  configuredColor?: string;
  requirementsQr: boolean;
}

export interface Favourite {
  favouriteId: string | number;
  menuId: string | number;
  functionUrl: string;
  params?: string;
  menuName?: string;
}

export interface AppState {
  ready: boolean;
  bootError?: string;
  user?: UserInfo;
  passwordInfo?: PasswordInfo;
  passwordDialog: false | 'forced' | 'closable';
  changePasswordOpen: boolean;
  setting: SystemSetting;
  flags: Flags;
  menus: MenuItem[];
  index: MenuIndex | null;
  defaultMenu?: { menuId: string | number; routePath: string; systemCode?: string } | null;
  manifest: Manifest | null;
  tabs: HostTab[];
  sidebarOpened: boolean;
  device: 'desktop' | 'mobile';
  fullscreen: boolean;
  theme: ThemeSettings;
  themeDrawer: boolean;
  feedbackOpen: boolean;
  defaultSystemOpen: boolean;
  helpOpen: boolean;
  chatOpen: boolean;
  favourites: Favourite[];
  menuNums: Record<string, number>;
  unread: number;
  /** Compact layout: the selected top-level menu. */
  compactTop?: string;
}

export const DEFAULT_THEME_COLOR = '#204BE3';
const THEME_KEY = 'atrium.theme';
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const THEME_COLOR_COOKIE = 'themeColor';

function initialTheme(): ThemeSettings {
  const saved = local.get<Partial<ThemeSettings>>(THEME_KEY, {}) || {};
  return {
    layout: saved.layout || 'default',
    style: saved.style || 'light',
    navbar: saved.navbar || 'default',
    menuMode: saved.menuMode || 'inline',
    themeColor: getCookie(THEME_COLOR_COOKIE) || DEFAULT_THEME_COLOR,
  };
}

function initialState(): AppState {
  return {
    ready: false,
    passwordDialog: false,
    changePasswordOpen: false,
    setting: {},
    flags: { help: true, bpm: true, chat: false, tracking: false, hideThemeControl: false, requirementsQr: false },
    menus: [], // the menu list is cleared at app start (spec 2.3)
    index: null,
    manifest: null,
    tabs: [],
    sidebarOpened: getCookie(SIDEBAR_COOKIE) !== '0',
    device: 'desktop',
    fullscreen: false,
    theme: initialTheme(),
    themeDrawer: false,
    feedbackOpen: false,
    defaultSystemOpen: false,
    helpOpen: false,
    chatOpen: false,
    favourites: [],
    menuNums: {},
    unread: 0,
  };
}

type Listener = () => void;
let state: AppState = initialState();
const listeners = new Set<Listener>();

export const store = {
  get: (): AppState => state,
  set(patch: Partial<AppState> | ((s: AppState) => Partial<AppState>)): void {
    const next = typeof patch === 'function' ? patch(state) : patch;
    state = { ...state, ...next };
    for (const l of Array.from(listeners)) l();
  },
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /** Back to a signed-out shell (keeps device, theme and sidebar). */
  reset(): void {
    const keep = { theme: state.theme, device: state.device, sidebarOpened: state.sidebarOpened };
    state = { ...initialState(), ...keep };
    for (const l of Array.from(listeners)) l();
  },
};

export function useStore<T>(selector: (s: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(state), () => selector(state));
}

export function setTheme(patch: Partial<ThemeSettings>): void {
  const theme = { ...state.theme, ...patch };
  const { themeColor, ...rest } = theme;
  local.set(THEME_KEY, rest);
  if (patch.themeColor) setCookie(THEME_COLOR_COOKIE, themeColor, 30);
  store.set({ theme });
}

export function setSidebar(opened: boolean): void {
  setCookie(SIDEBAR_COOKIE, opened ? '1' : '0');
  store.set({ sidebarOpened: opened });
}
