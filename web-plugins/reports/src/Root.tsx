import { lazy, Suspense, type ReactElement } from 'react';
import { useLocation } from 'react-router';
import { Spin } from 'antd';
import type { PluginRouteProps } from '@atrium/sdk';

const LinkPage = lazy(() => import(/* webpackChunkName: "link" */ './pages/LinkPage'));
const PreviewPage = lazy(() => import(/* webpackChunkName: "preview" */ './pages/PreviewPage'));
const ReportsHome = lazy(() => import(/* webpackChunkName: "home" */ './pages/ReportsHome'));
const DesignerPage = lazy(() => import(/* webpackChunkName: "designer" */ './designer/panel/DesignerPage'));
const DatasourcePage = lazy(() => import(/* webpackChunkName: "datasource" */ './designer/data/DatasourcePage'));
const DatasetPage = lazy(() => import(/* webpackChunkName: "dataset" */ './designer/data/DatasetPage'));

/** Paths the module serves without a session (the host mounts it there before sign-in). */
export const OPEN_ROUTE_PATHS = ['/dynamic-report/link/*', '/report/preview', '/report/preview/*'];

export type ReportsPage = 'link' | 'preview' | 'design' | 'datasource' | 'dataset' | 'home';

export function pageFor(pathname: string): ReportsPage {
  if (/^\/dynamic-report\/link(\/|$)/.test(pathname) || /^\/report\/preview(\/|$)/.test(pathname)) return 'link';
  if (/^\/dynamic-report\/preview(\/|$)/.test(pathname)) return 'preview';
  if (/^\/dynamic-report\/design\/[^/]+/.test(pathname)) return 'design';
  if (/^\/dynamic-report\/datasource(\/|$)/.test(pathname)) return 'datasource';
  if (/^\/dynamic-report\/dataset(\/|$)/.test(pathname)) return 'dataset';
  return 'home';
}

function Fallback() {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: 240 }}>
      <Spin />
    </div>
  );
}

const PAGES: Record<ReportsPage, ReactElement> = {
  link: <LinkPage />,
  preview: <PreviewPage />,
  design: <DesignerPage />,
  datasource: <DatasourcePage />,
  dataset: <DatasetPage />,
  home: <ReportsHome />,
};

export function ReportsRoot(_props: PluginRouteProps) {
  const location = useLocation();
  const page = pageFor(location.pathname);
  return (
    <Suspense fallback={<Fallback />}>
      {PAGES[page]}
    </Suspense>
  );
}
