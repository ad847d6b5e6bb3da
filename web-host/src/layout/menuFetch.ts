import { request, type MenuItem } from '@atrium/sdk';

/** Fetch menu entries (spec 3, 7): a menu with isFetch loads its children from `base-menu-fetch/find-list`
 * (params menuId) when it is expanded; each entry opens the menu's fetchPath (else its own page) with the
 * entry's id in the query. */
export interface MenuFetchEntry {
  menuFetchId: string;
  fetchItemName: string;
  fetchExpand?: unknown;
}

export const FETCH_ENTRY_PREFIX = 'fetch:';

export function isFetchMenu(menu: MenuItem | undefined): boolean {
  return !!menu && (menu.isFetch === true || Number(menu.isFetch) === 1);
}

/** Where an entry goes: `{fetchPath or the menu's path}?menuFetchId={id}` (other query kept). */
export function fetchEntryPath(menu: MenuItem, entry: MenuFetchEntry): string | undefined {
  const raw = (menu.fetchPath || '').trim();
  const base = raw && !/^(https?:)?\/\//i.test(raw) ? `/${raw.replace(/^\/+/, '')}` : menu.path;
  if (!base) return undefined;
  const [path, search = ''] = base.split('?');
  const query = new URLSearchParams(search);
  query.set('menuFetchId', String(entry.menuFetchId));
  return `${path}?${query.toString()}`;
}

/** The menu key of an entry in the side menu, and back. */
export function fetchEntryKey(menuId: string | number, entryId: string | number): string {
  return `${FETCH_ENTRY_PREFIX}${menuId}:${entryId}`;
}

export function parseFetchEntryKey(key: string): { menuId: string; entryId: string } | undefined {
  if (!key.startsWith(FETCH_ENTRY_PREFIX)) return undefined;
  const rest = key.slice(FETCH_ENTRY_PREFIX.length);
  const at = rest.indexOf(':');
  return at > 0 ? { menuId: rest.slice(0, at), entryId: rest.slice(at + 1) } : undefined;
}

const loaded = new Map<string, Promise<MenuFetchEntry[]>>();

/** A menu's entries, asked once per menu (a failure is forgotten so the next expand asks again). */
export function loadMenuFetch(menuId: string | number): Promise<MenuFetchEntry[]> {
  const key = String(menuId);
  let promise = loaded.get(key);
  if (!promise) {
    promise = request<MenuFetchEntry[]>('base/base-menu-fetch/find-list', { method: 'POST', data: { menuId }, silent: true })
      .then((list) => (Array.isArray(list) ? list : []));
    promise.catch(() => loaded.delete(key));
    loaded.set(key, promise);
  }
  return promise;
}

/** Forgets every menu's entries (menus reloaded, tenant switched). */
export function resetMenuFetch(): void {
  loaded.clear();
}
