/** Tab strip logic (spec 4, tabs), pure so it can be tested without a browser. */

export const HOME_PATH = '/home';

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
