import { HOME_PATH, tabKey, type TabView } from '@atrium/sdk';
import { findMenu, type MenuIndex } from '../menus';
import type { RememberedRoute } from './routeMemory';
import { menuTitle } from './titles';

/** A tab's meta (spec 3, tag view): its menu, titles, caching and the address it shows. */
export interface TabMeta {
  menuId?: string | number;
  title: string;
  enTitle?: string;
  noCache?: boolean;
  /** The menu's address: the external page of a frame menu, else its menuUrl. */
  url?: string;
}

/** An open tab as the shell keeps it: the SDK's tab with its name, meta and query. */
export interface HostTab extends TabView {
  /** The route's name: its menu's code, else its path. */
  name?: string;
  meta?: TabMeta;
  query?: Record<string, string>;
}

export function isMultiTagSearch(search: string): boolean {
  return new URLSearchParams(search).get('isMultiTag') === 'true';
}

/** The tab a location opens: titled from its menu, else from what was remembered when it first opened. */
export function tabFor(pathname: string, search: string, index: MenuIndex | null, remembered?: RememberedRoute): HostTab {
  const menu = findMenu(index, pathname);
  const known = menu ? undefined : remembered;
  const isMultiTag = isMultiTagSearch(search);
  const title = menu ? menuTitle(menu, 'zh-cn') : known?.title || pathname;
  const enTitle = menu ? menuTitle(menu, 'en-us') : known?.enTitle;
  const menuId = menu ? menu.menuId : known?.menuId;
  const noCache = pathname.startsWith('/dynamic-form/render/') || menu?.isCache === 0 || menu?.isCache === false;
  return {
    key: tabKey(pathname, pathname + search, isMultiTag),
    path: pathname,
    fullPath: pathname + search,
    title,
    enTitle,
    menuId,
    noCache,
    isMultiTag,
    affix: pathname === HOME_PATH,
    name: (menu ? menu.menuCode : known?.name) || pathname,
    meta: { menuId, title, enTitle, noCache, url: menu ? menu.frameUrl || menu.menuUrl : known?.url },
    query: Object.fromEntries(new URLSearchParams(search)),
  };
}

/** What to remember of a tab, or nothing for a tab titled by its path alone. */
export function routeInfo(tab: HostTab): RememberedRoute | undefined {
  if (!tab.title || tab.title === tab.path) return undefined;
  return { title: tab.title, enTitle: tab.enTitle, menuId: tab.menuId, name: tab.name, url: tab.meta?.url };
}
