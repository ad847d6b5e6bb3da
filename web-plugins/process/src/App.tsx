/**
 * The process plugin's federated module (`./App`): models, the designer (bpmn-js, downloaded only when a
 * designer or an instance diagram opens), my tasks, my process, an instance's history; the home card with
 * the counts and the portal's my upcoming / my pending / my process panels.
 */
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { CountsCard, CountsTitle, PortalPanels } from './Panels';

const HomePage = lazy(() => import('./pages/Home').then((m) => ({ default: m.HomePage })));
const DesignerPage = lazy(() => import('./pages/Designer').then((m) => ({ default: m.DesignerPage })));
const InstancePage = lazy(() => import('./pages/Instance').then((m) => ({ default: m.InstancePage })));

function ProcessApp() {
  const { pathname } = useLocation();
  let page = <HomePage />;
  if (pathname.startsWith('/process_manage/design')) page = <DesignerPage />;
  else if (pathname.startsWith('/process_manage/instance/')) page = <InstancePage />;
  return <div className="at-page"><Suspense fallback={<Spin />}>{page}</Suspense></div>;
}

export default definePlugin({
  name: 'process',
  App: ProcessApp,
  slots: {
    homeCard: { title: <CountsTitle />, span: 12, Component: CountsCard },
    portalPanel: { span: 24, Component: PortalPanels },
  },
});
