/**
 * What the shell knew of a route when its tab opened (title, menu, address), kept in session storage: a
 * route the in-memory menus do not hold (a page pushed by an embedding host, a page opened from a link,
 * menus not loaded yet after a reload) gets its tab's title and meta back from here.
 */
export interface RememberedRoute {
  title: string;
  enTitle?: string;
  menuId?: string | number;
  name?: string;
  url?: string;
}

const STORAGE_KEY = 'atrium.routes';
const MAX_ROUTES = 200;

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : undefined;
  } catch {
    return undefined;
  }
}

function readAll(): Record<string, RememberedRoute> {
  try {
    const value = JSON.parse(storage()?.getItem(STORAGE_KEY) || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function rememberedRoute(path: string): RememberedRoute | undefined {
  const found = readAll()[path];
  return found && typeof found.title === 'string' && found.title ? found : undefined;
}

/** Saves a route's info (the newest last; the oldest are dropped past 200 routes). */
export function rememberRoute(path: string, info: RememberedRoute): void {
  const all = readAll();
  const previous = all[path];
  if (previous && JSON.stringify(previous) === JSON.stringify(info)) return;
  delete all[path];
  all[path] = info;
  const paths = Object.keys(all);
  for (const old of paths.slice(0, Math.max(0, paths.length - MAX_ROUTES))) delete all[old];
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    /* storage full or refused: the tab keeps its title for this visit only */
  }
}

/** Forgets every remembered route (on signing out: the next user's menus are another's). */
export function forgetRoutes(): void {
  try {
    storage()?.removeItem(STORAGE_KEY);
  } catch {
    /* nothing stored */
  }
}
