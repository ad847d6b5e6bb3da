/**
 * The forms plugin's federated module (`./App`): the designer (/form-design), the preview (/form-preview),
 * the render page (/dynamic-form/render/:formId, also DYNAMIC_FORM menus), a form's submissions
 * (/dynamic-form/render/:formId/submissions, so its tab carries the form's menu title) and the home card with the form count.
 */
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { FormCountCard, FormCountTitle } from './HomeCard';

const DesignerPage = lazy(() => import('./pages/Designer').then((m) => ({ default: m.DesignerPage })));
const PreviewPage = lazy(() => import('./pages/Preview').then((m) => ({ default: m.PreviewPage })));
const RenderPage = lazy(() => import('./pages/Render').then((m) => ({ default: m.RenderPage })));
const SubmissionsPage = lazy(() => import('./pages/Submissions').then((m) => ({ default: m.SubmissionsPage })));

function FormsApp() {
  const { pathname } = useLocation();
  let page = <DesignerPage />;
  if (pathname.startsWith('/form-preview')) page = <PreviewPage />;
  else if (/^\/dynamic-form\/render\/[^/]+\/submissions\/?$/.test(pathname)) page = <SubmissionsPage />;
  else if (pathname.startsWith('/dynamic-form/render/')) page = <RenderPage />;
  return <div className="at-page"><Suspense fallback={<Spin />}>{page}</Suspense></div>;
}

export default definePlugin({
  name: 'forms',
  App: FormsApp,
  slots: { homeCard: { title: <FormCountTitle />, span: 6, Component: FormCountCard } },
});
