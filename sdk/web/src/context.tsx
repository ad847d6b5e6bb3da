import { createContext, useContext, type Context } from 'react';
import { globalSingleton } from './global';

/** Creates a React context once per page (kept on globalThis under a Symbol key), so the host and a
 * plugin that somehow got a second SDK copy still share it. */
export function globalContext<T>(name: string, defaultValue: T): Context<T> {
  return globalSingleton(`context.${name}`, () => createContext<T>(defaultValue));
}

export interface MenuItem {
  menuId: string | number;
  menuCode?: string;
  menuUrl?: string;
  menuName: string;
  menuEnName?: string | Record<string, string>;
  menuIconurl?: string;
  parameter?: string;
  isCache?: number | boolean;
  isFetch?: number | boolean;
  fetchPath?: string;
  subscriptKey?: string;
  subscriptStatus?: number;
  key?: string;
  userManualUrl?: string;
  originalAddr?: string;
  children?: MenuItem[];
  meta?: { title?: string; enTitle?: string | Record<string, string>; params?: unknown; userManualUrl?: string };
  /** Filled by the host: the route path this menu opens. */
  path?: string;
  /** Filled by the host: the external address for frame pages. */
  frameUrl?: string;
}

export interface ManifestPlugin {
  name: string;
  version?: string;
  remoteName: string;
  remoteUrl: string;
  exposes?: string[] | Record<string, string>;
  prefixes: string[];
  slots?: { slot: string; module: string }[];
}

export interface Manifest {
  sdkVersion?: string;
  services: Record<string, string>;
  plugins: ManifestPlugin[];
}

/** What the shell offers to pages and plugins. */
export interface ShellApi {
  navigate: (to: string) => void;
  /** Opens a page in a tab (same as navigate, with an optional title for pages without a menu). */
  openPage: (to: string, title?: string) => void;
  closeCurrentTab: () => void;
  refreshMenus: () => Promise<void>;
  menus: MenuItem[];
  manifest: Manifest | null;
  /** The active page's menu, if any. */
  currentMenu?: MenuItem;
  themeColor: string;
  dark: boolean;
}

const noop = () => undefined;

export const ShellContext = globalContext<ShellApi>('shell', {
  navigate: noop,
  openPage: noop,
  closeCurrentTab: noop,
  refreshMenus: async () => undefined,
  menus: [],
  manifest: null,
  themeColor: '#204BE3',
  dark: false,
});

export function useShell(): ShellApi {
  return useContext(ShellContext);
}
