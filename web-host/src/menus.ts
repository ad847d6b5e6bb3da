import type { MenuItem } from '@atrium/sdk';

/** Menu handling (spec 2.3): paths, frame pages, dynamic forms, hidden menus, lookup. Pure. */

export interface MenuParameter {
  menu_type?: string;
  diy_code?: string;
  layout_code?: string;
  [k: string]: unknown;
}

export interface MenuIndex {
  tree: MenuItem[];
  /** Leaf and page menus in menu order. */
  pages: MenuItem[];
  byId: Map<string, MenuItem>;
  byPath: Map<string, MenuItem>;
  parents: Map<string, string[]>;
}

export function isExternalUrl(url: string | undefined): boolean {
  return !!url && /^(https?:)?\/\//i.test(url.trim());
}

export function parseParameter(parameter: unknown): MenuParameter {
  if (!parameter) return {};
  if (typeof parameter === 'object') return parameter as MenuParameter;
  try {
    const value = JSON.parse(String(parameter));
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function lastSegment(value: string | undefined): string {
  return (value || '').replace(/\/+$/, '').split('/').pop() || '';
}

function named(menu: MenuItem, name: string): boolean {
  return menu.menuCode === name || lastSegment(menu.menuUrl) === name || menu.menuName === name;
}

/** rule-engine menus are always hidden; api-analytics only shows with the chat feature on. */
export function isHiddenMenu(menu: MenuItem, chatEnabled: boolean): boolean {
  if (named(menu, 'rule-engine')) return true;
  if (named(menu, 'api-analytics') && !chatEnabled) return true;
  return false;
}

/** The route a menu gives (spec 2.3): its menuUrl, or its menuCode when the url is an external address
 * (such a menu opens its frame page at /third-view/{menuId}, and its route by code opens the same page). */
export function menuRoute(menu: MenuItem): string | undefined {
  const url = (menu.menuUrl || '').trim();
  if (!isExternalUrl(url)) return url ? `/${url.replace(/^\/+/, '').replace(/\/+$/, '')}` : undefined;
  const code = String(menu.menuCode ?? '').trim().replace(/^\/+/, '');
  return code && !isExternalUrl(code) ? `/${encodeURI(code)}` : undefined;
}

/** The external-address menu whose route (by menuCode) is exactly this path. */
export function frameMenuAt(index: MenuIndex | null, pathname: string): MenuItem | undefined {
  const menu = index?.byPath.get(pathname);
  return menu?.frameUrl ? menu : undefined;
}

/** The path (with query) a menu opens. */
export function menuPath(menu: MenuItem): string | undefined {
  const url = (menu.menuUrl || '').trim();
  if (isExternalUrl(url)) return `/third-view/${menu.menuId}`;
  if (!url) return undefined;
  const base = `/${url.replace(/^\/+/, '')}`;
  const param = parseParameter(menu.parameter);
  if (param.menu_type === 'DYNAMIC_FORM' && param.diy_code) {
    const path = `${base.replace(/\/+$/, '')}/${param.diy_code}`;
    return param.layout_code ? `${path}?layoutId=${encodeURIComponent(param.layout_code)}` : path;
  }
  return base;
}

/** Replaces {token}, {menuId}, {systemCode} and {user field} placeholders in a frame address. */
export function fillFrameUrl(url: string, values: { token?: string; menuId?: string | number; systemCode?: string; user?: Record<string, unknown> }): string {
  return url.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (name === 'token') return encodeURIComponent(values.token || '');
    if (name === 'menuId') return encodeURIComponent(String(values.menuId ?? ''));
    if (name === 'systemCode') return encodeURIComponent(values.systemCode || '');
    const v = values.user?.[name];
    return v === undefined || v === null ? whole : encodeURIComponent(String(v));
  });
}

/** Builds the menu index once from the server's tree. */
export function buildMenuIndex(tree: MenuItem[], chatEnabled: boolean): MenuIndex {
  const byId = new Map<string, MenuItem>();
  const byPath = new Map<string, MenuItem>();
  const parents = new Map<string, string[]>();
  const pages: MenuItem[] = [];
  const walk = (items: MenuItem[], chain: string[]): MenuItem[] =>
    items
      .filter((m) => !isHiddenMenu(m, chatEnabled))
      .map((m) => {
        const id = String(m.menuId);
        const children = m.children && m.children.length ? walk(m.children, [...chain, id]) : undefined;
        const path = menuPath(m);
        const item: MenuItem = { ...m, children, path, frameUrl: isExternalUrl(m.menuUrl) ? m.menuUrl : undefined };
        byId.set(id, item);
        parents.set(id, chain);
        if (path && !children) {
          pages.push(item);
          byPath.set(path.split('?')[0], item);
          const byCode = item.frameUrl ? menuRoute(item) : undefined;
          if (byCode && !byPath.has(byCode)) byPath.set(byCode, item);
        }
        return item;
      });
  const normalized = walk(tree || [], []);
  return { tree: normalized, pages, byId, byPath, parents };
}

/** The menu for a location: exact path, else the longest menu path that prefixes it. */
export function findMenu(index: MenuIndex | null, pathname: string): MenuItem | undefined {
  if (!index) return undefined;
  const third = /^\/third-view\/([^/]+)/.exec(pathname);
  if (third) return index.byId.get(decodeURIComponent(third[1]));
  const exact = index.byPath.get(pathname);
  if (exact) return exact;
  let best: MenuItem | undefined;
  let bestLen = 0;
  for (const [path, menu] of index.byPath) {
    if (path !== '/' && pathname.startsWith(`${path}/`) && path.length > bestLen) {
      best = menu;
      bestLen = path.length;
    }
  }
  return best;
}

/** Cuts a user name to 8 characters plus an ellipsis (spec 5). */
export function shortName(name: string | undefined, max = 8): string {
  const chars = Array.from(name || '');
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : chars.join('');
}

/** The avatar fallback: the last character of the name. */
/** What an avatar without a picture shows: a Chinese name's last character (the given name), else the
 * initials of the first and last words ("Alice Zhang" → "AZ"). */
export function avatarText(name: string | undefined): string {
  const text = (name || '').trim();
  if (!text) return '?';
  if (/[\u3400-\u9fff]/.test(text)) {
    const chars = Array.from(text);
    return chars[chars.length - 1];
  }
  const words = text.split(/\s+/);
  const first = Array.from(words[0])[0] ?? '';
  const last = words.length > 1 ? Array.from(words[words.length - 1])[0] ?? '' : '';
  return (first + last).toUpperCase();
}
