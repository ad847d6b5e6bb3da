import { useSyncExternalStore } from 'react';
import { globalSingleton } from './global';
import { request } from './request';

export interface ButtonResource {
  resourceId?: string | number;
  resourceCode: string;
  resourceName?: string;
}

/** Button permissions per menu (spec 6): loaded for the active menu and cached per menuId; the current
 * list is also kept in session storage. Super administrators see every button. */
class Permissions {
  byMenu = new Map<string, Set<string>>();
  activeMenu: string | undefined;
  superAdmin = false;
  private listeners = new Set<() => void>();
  private version = 0;

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getVersion = () => this.version;

  private changed() {
    this.version += 1;
    for (const l of Array.from(this.listeners)) l();
  }

  set(menuId: string | number, list: ButtonResource[] | string[]): void {
    const codes = new Set(list.map((x) => (typeof x === 'string' ? x : x.resourceCode)));
    this.byMenu.set(String(menuId), codes);
    if (String(menuId) === this.activeMenu) this.persist();
    this.changed();
  }

  private persist() {
    try {
      const codes = this.activeMenu ? Array.from(this.byMenu.get(this.activeMenu) || []) : [];
      sessionStorage.setItem('atrium.buttonAuthority', JSON.stringify(codes));
    } catch {
      /* no session storage */
    }
  }

  /** Sets the active menu and loads its buttons once (`resource/find-resource`). */
  async activate(menuId: string | number | undefined): Promise<void> {
    this.activeMenu = menuId === undefined ? undefined : String(menuId);
    this.persist();
    this.changed();
    if (menuId === undefined || this.byMenu.has(String(menuId))) return;
    try {
      const list = await request<ButtonResource[]>('base/resource/find-resource', { params: { menuId }, silent: true });
      this.set(menuId, Array.isArray(list) ? list : []);
    } catch {
      this.set(menuId, []);
    }
  }

  has(code: string, menuId?: string | number): boolean {
    if (this.superAdmin) return true;
    const key = menuId === undefined ? this.activeMenu : String(menuId);
    if (!key) return false;
    return this.byMenu.get(key)?.has(code) ?? false;
  }

  clear(): void {
    this.byMenu.clear();
    this.activeMenu = undefined;
    this.changed();
  }
}

export const permissions: Permissions = globalSingleton('permissions', () => new Permissions());

/** True when the current user holds the button `code` on the active menu (or on `menuId`). */
export function hasButton(code: string, menuId?: string | number): boolean {
  return permissions.has(code, menuId);
}

/** React hook form of `hasButton`, re-rendered when the permissions load. */
export function useHasButton(code: string, menuId?: string | number): boolean {
  useSyncExternalStore(permissions.subscribe, permissions.getVersion, permissions.getVersion);
  return permissions.has(code, menuId);
}
