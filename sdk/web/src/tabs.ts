/** Tab strip logic (spec 4, tabs), pure so it can be tested without a browser. */
import { bus } from './events';

export const HOME_PATH = '/home';

/** The bus event a page sends to title its own tab (see setTabTitle). */
export const TAB_TITLE_EVENT = 'tab:title';

export interface TabTitle {
  /** The tab's path (the page's own `location.pathname`). */
  path: string;
  /** The title in the current language; null gives the tab its menu's title back. */
  title: string | null;
}

export interface TabView {
  /** Unique key: the path, or the full path for multi-tag pages. */
  key: string;
  path: string;
  fullPath: string;
  title: string;
  enTitle?: string;
  menuId?: string | number;
  noCache?: boolean;
  isMultiTag?: boolean;
  affix?: boolean;
  /** A title the page gave its tab (setTabTitle), shown instead of the menu's: a designer's "Edit: <name>". */
  pageTitle?: string;
}

/** Titles the tab of the page at `path` (pages under one menu, such as an editor, tell their tabs apart). */
export function setTabTitle(path: string, title: string | null): void {
  bus.emit<TabTitle>(TAB_TITLE_EVENT, { path, title });
}

/** The tabs with the page title of `path`'s tab set (or removed); the same list when nothing changes. */
export function titleTab(tabs: TabView[], { path, title }: TabTitle): TabView[] {
  const pageTitle = title || undefined;
  if (!tabs.some((t) => t.path === path && t.pageTitle !== pageTitle)) return tabs;
  return tabs.map((t) => (t.path === path ? { ...t, pageTitle } : t));
}

export function tabKey(path: string, fullPath: string, isMultiTag?: boolean): string {
  return isMultiTag ? fullPath : path;
}

/** Opens a tab: an entry with the same key is replaced (keeping its place), else appended. */
export function openTab(tabs: TabView[], tab: TabView): TabView[] {
  const index = tabs.findIndex((t) => t.key === tab.key);
  if (index === -1) return [...tabs, tab];
  const next = tabs.slice();
  next[index] = { ...tabs[index], ...tab };
  return next;
}

export interface CloseResult {
  tabs: TabView[];
  /** Where to go when the active tab was closed. */
  navigateTo?: string;
  refused?: boolean;
}

/** Closes one tab; home cannot be closed. Closing the active tab goes to the last remaining tab or home. */
export function closeTab(tabs: TabView[], key: string, activeKey: string): CloseResult {
  const tab = tabs.find((t) => t.key === key);
  if (!tab) return { tabs };
  if (tab.affix || tab.path === HOME_PATH) return { tabs, refused: true };
  const next = tabs.filter((t) => t.key !== key);
  if (key !== activeKey) return { tabs: next };
  const last = next[next.length - 1];
  return { tabs: next, navigateTo: last ? last.fullPath : HOME_PATH };
}

/** Closes every tab but home and the given one. */
export function closeOthers(tabs: TabView[], key: string): TabView[] {
  return tabs.filter((t) => t.affix || t.path === HOME_PATH || t.key === key);
}

/** Closes every tab but home. */
export function closeAll(tabs: TabView[]): CloseResult {
  return { tabs: tabs.filter((t) => t.affix || t.path === HOME_PATH), navigateTo: HOME_PATH };
}
