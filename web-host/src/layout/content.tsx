import { Suspense, lazy, useMemo, type ReactNode } from 'react';
import { Spin } from 'antd';
import { UNSAFE_LocationContext, UNSAFE_RouteContext, NavigationType, type Location } from 'react-router';
import type { Manifest, ManifestPlugin, MenuItem } from '@atrium/sdk';
import { Home } from '../pages/Home';
import { NoPermission, NotFound, NotInstalled } from '../pages/errorPages';
import { appForPath, pluginForPath } from '../plugins/registry';
import { frameMenuAt, type MenuIndex } from '../menus';

const PersonInfoPage = lazy(() => import(/* webpackChunkName: "person" */ '../pages/PersonInfo').then((m) => ({ default: m.PersonInfo })));
const ThirdViewPage = lazy(() => import(/* webpackChunkName: "third-view" */ '../pages/ThirdView').then((m) => ({ default: m.ThirdView })));
// A plugin's page is not part of the first page (home): its frame is downloaded with the first plugin page.
const PluginPageLazy = lazy(() => import(/* webpackChunkName: "plugin-page" */ '../plugins/PluginPage').then((m) => ({ default: m.PluginPage })));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div className="at-page at-center"><Spin /></div>}>{children}</Suspense>;
}

function PluginPage(props: { plugin: ManifestPlugin; prefix: string }) {
  return <Lazy><PluginPageLazy {...props} /></Lazy>;
}

/** A plugin the tenant would have that did not load (failed, or uninstalled since), as the manifest lists
 * it under `unavailable`: its prefixes, and its load error for administrators. */
interface UnavailablePlugin {
  name: string;
  prefixes: string[];
  error?: string;
}

/** The unavailable plugin whose prefix (the longest that matches) covers the path. */
function unavailableForPath(manifest: Manifest | null, pathname: string): UnavailablePlugin | undefined {
  const listed = (manifest as (Manifest & { unavailable?: UnavailablePlugin[] }) | null)?.unavailable || [];
  let found: { plugin: UnavailablePlugin; length: number } | undefined;
  for (const plugin of listed) {
    for (const prefix of plugin.prefixes || []) {
      const p = prefix.replace(/\/+$/, '');
      if ((pathname === p || pathname.startsWith(`${p}/`)) && (!found || p.length > found.length)) found = { plugin, length: p.length };
    }
  }
  return found?.plugin;
}

/** What the main area shows for a path (the catch-all also hosts micro-applications, spec 2.2). */
export function resolveContent(pathname: string, manifest: Manifest | null, index: MenuIndex | null): ReactNode {
  if (pathname === '/home') return <Home />;
  if (pathname === '/person-info') return <Lazy><PersonInfoPage /></Lazy>;
  if (pathname === '/403') return <NoPermission />;
  if (pathname.startsWith('/third-view/')) return <Lazy><ThirdViewPage menuId={decodeURIComponent(pathname.slice('/third-view/'.length))} /></Lazy>;
  const frameMenu = frameMenuAt(index, pathname);
  if (frameMenu) return <Lazy><ThirdViewPage menuId={String(frameMenu.menuId)} /></Lazy>;
  if (pathname === '/letters' || pathname.startsWith('/letters/')) {
    const hit = pluginForPath(manifest, pathname);
    if (hit) return <PluginPage plugin={hit.plugin} prefix={hit.prefix} />;
    const messages = manifest?.plugins.find((p) => p.name === 'message' || p.name === 'messages');
    return messages ? <PluginPage plugin={messages} prefix="/letters" /> : <NotInstalled app="message" />;
  }
  if (pathname.startsWith('/dynamic-form/render/')) {
    const hit = pluginForPath(manifest, pathname) || pluginForPath(manifest, '/form-design');
    return hit ? <PluginPage plugin={hit.plugin} prefix={hit.prefix} /> : <NotInstalled app="dynamic-form" />;
  }
  const hit = pluginForPath(manifest, pathname);
  if (hit) return <PluginPage plugin={hit.plugin} prefix={hit.prefix} />;
  const missing = unavailableForPath(manifest, pathname);
  if (missing) return <NotInstalled app={missing.name} error={missing.error} />;
  const app = appForPath(pathname);
  if (app) return <NotInstalled app={app} />;
  if (index?.byPath.has(pathname)) return <NotInstalled />;
  return <NotFound />;
}

const EMPTY_ROUTE_CONTEXT = { outlet: null, matches: [], isDataRoute: false } as any;

/** Gives a kept-alive tab its own location, so a hidden tab's `<Routes>` never see another page's URL. */
export function TabLocation({ location, children }: { location: Location; children: ReactNode }) {
  const value = useMemo(() => ({ location, navigationType: NavigationType.Push }), [location]);
  return (
    <UNSAFE_LocationContext.Provider value={value}>
      <UNSAFE_RouteContext.Provider value={EMPTY_ROUTE_CONTEXT}>{children}</UNSAFE_RouteContext.Provider>
    </UNSAFE_LocationContext.Provider>
  );
}

export function locationOf(fullPath: string, key: string): Location {
  const url = new URL(fullPath, 'http://x');
  return { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key } as Location;
}

export type { MenuItem };
