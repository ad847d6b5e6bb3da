import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { Spin } from 'antd';
import type { PluginRouteProps } from '@atrium/sdk';

const LinkPage = lazy(() => import(/* webpackChunkName: "link" */ './pages/LinkPage'));
const PreviewPage = lazy(() => import(/* webpackChunkName: "preview" */ './pages/PreviewPage'));
const ReportsHome = lazy(() => import(/* webpackChunkName: "home" */ './pages/ReportsHome'));

/** Paths the module serves without a session (the host mounts it there before sign-in). */
export const OPEN_ROUTE_PATHS = ['/dynamic-report/link/*', '/report/preview', '/report/preview/*'];

export type ReportsPage = 'link' | 'preview' | 'home';

export function pageFor(pathname: string): ReportsPage {
  if (/^\/dynamic-report\/link(\/|$)/.test(pathname) || /^\/report\/preview(\/|$)/.test(pathname)) return 'link';
  if (/^\/dynamic-report\/preview(\/|$)/.test(pathname)) return 'preview';
  return 'home';
}

function Fallback() {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: 240 }}>
      <Spin />
    </div>
  );
}

export function ReportsRoot(_props: PluginRouteProps) {
  const location = useLocation();
  const page = pageFor(location.pathname);
  return (
    <Suspense fallback={<Fallback />}>
      {page === 'link' ? <LinkPage /> : page === 'preview' ? <PreviewPage /> : <ReportsHome />}
    </Suspense>
  );
}
