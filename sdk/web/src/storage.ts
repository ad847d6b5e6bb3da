/** Cookies and a local-storage wrapper whose values expire after a number of days. */

import { basePath } from './base';

const DAY_MS = 24 * 60 * 60 * 1000;

function hasDocument(): boolean {
  return typeof document !== 'undefined' && typeof document.cookie === 'string';
}

export function getCookie(name: string): string | undefined {
  if (!hasDocument()) return undefined;
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return undefined;
}

/** Sets a cookie for the platform's path (the whole site at its root); `days` may be fractional (a token lifetime in minutes / 1440). */
export function setCookie(name: string, value: string, days?: number): void {
  if (!hasDocument()) return;
  let cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=${basePath() || '/'}; SameSite=Lax`;
  if (days !== undefined) cookie += `; expires=${new Date(Date.now() + days * DAY_MS).toUTCString()}`;
  document.cookie = cookie;
}

export function removeCookie(name: string): void {
  if (!hasDocument()) return;
  document.cookie = `${encodeURIComponent(name)}=; path=${basePath() || '/'}; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : undefined;
  } catch {
    return undefined;
  }
}

interface Stored<T> {
  v: T;
  e?: number;
}

/** localStorage wrapper: JSON values, optional expiry in days. */
export const local = {
  get<T = unknown>(key: string, fallback?: T): T | undefined {
    const s = storage();
    const raw = s?.getItem(key);
    if (raw == null) return fallback;
    try {
      const item = JSON.parse(raw) as Stored<T>;
      if (item && typeof item === 'object' && 'v' in item) {
        if (item.e && item.e < Date.now()) {
          s?.removeItem(key);
          return fallback;
        }
        return item.v;
      }
      return item as unknown as T;
    } catch {
      return raw as unknown as T;
    }
  },
  set<T>(key: string, value: T, days?: number): void {
    const item: Stored<T> = { v: value };
    if (days) item.e = Date.now() + days * DAY_MS;
    storage()?.setItem(key, JSON.stringify(item));
  },
  remove(key: string): void {
    storage()?.removeItem(key);
  },
};
