/**
 * Tabs follow the address, not the render. A route change is a React transition: on a busy machine its
 * render can be interrupted by the next navigation and never commit, so a tab opened in an effect after
 * the page renders could be lost. The shell's history tells this module of every location change as it
 * happens, and the tab is opened then.
 */
import { UNSAFE_createBrowserHistory, matchPath, type Location } from 'react-router';
import { HOME_PATH, appPath, openTab, type TabView } from '@atrium/sdk';
import { store } from '../store';
import { rememberRoute, rememberedRoute } from './routeMemory';
import { routeInfo, tabFor } from './tabView';

export { isMultiTagSearch, tabFor } from './tabView';

export const HOME_TAB: TabView = { key: HOME_PATH, path: HOME_PATH, fullPath: HOME_PATH, title: 'home', affix: true };

/** Pages the shell's router draws outside the tabbed layout (they never get a tab). */
const OUTSIDE_TABS = ['/', '/login', '/404', '/portal/*', '/midea-login', '/dynamic-report/link/*', '/dynamic-report/preview/*', '/report/preview/*', '/grid-layout'];

type Listener = (location: Location) => void;
const listeners = new Set<Listener>();

/** The browser history the shell's router runs on; it reports each location change before React renders. */
export const shellHistory = UNSAFE_createBrowserHistory({ window, v5Compat: true });
const listen = shellHistory.listen.bind(shellHistory);
shellHistory.listen = (fn) =>
  listen((update) => {
    const location = { ...update.location, pathname: appPath(update.location.pathname) };
    listeners.forEach((l) => l(location));
    fn(update);
  });

export function onNavigate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens (or refreshes) the tab of a location in the store, remembering its title and meta for when the
 * menus do not know the route; home is always the first tab. */
export function openRouteTab(pathname: string, search: string): void {
  if (OUTSIDE_TABS.some((pattern) => matchPath(pattern, pathname))) return;
  const tab = tabFor(pathname, search, store.get().index, rememberedRoute(pathname));
  const info = routeInfo(tab);
  if (info) rememberRoute(pathname, info);
  store.set((s) => {
    const withHome = s.tabs.some((x) => x.key === HOME_PATH) ? s.tabs : [HOME_TAB, ...s.tabs];
    return { tabs: openTab(withHome, tab) };
  });
}
