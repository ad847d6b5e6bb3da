import { localeText, type MenuItem, type TabView } from '@atrium/sdk';
import type { TFunction } from 'i18next';
import type { MenuIndex } from '../menus';

const FIXED: Record<string, string> = {
  '/home': 'menu.home',
  '/person-info': 'menu.personInfo',
  '/letters': 'menu.letters',
  '/403': 'error.noPermissionTitle',
};

export function menuTitle(menu: MenuItem, locale: string): string {
  return localeText(menu.menuName || menu.meta?.title, menu.menuEnName || menu.meta?.enTitle, locale) || String(menu.menuId);
}

/** The label of a tab in the current language. */
export function tabTitle(tab: Pick<TabView, 'path' | 'title' | 'menuId' | 'pageTitle'> & { enTitle?: string }, index: MenuIndex | null, t: TFunction, locale: string): string {
  if (FIXED[tab.path]) return t(FIXED[tab.path]);
  if (tab.pageTitle) return tab.pageTitle;
  if (tab.menuId !== undefined) {
    const menu = index?.byId.get(String(tab.menuId));
    if (menu) return menuTitle(menu, locale);
  }
  if (tab.path.startsWith('/dynamic-form/render/')) return t('menu.formRender');
  return (tab.title && localeText(tab.title, tab.enTitle, locale)) || tab.title || tab.path;
}
