/**
 * The portal plugin's federated module (`./App`): the portal panels (slot `portalPanel`, which also
 * draws the company news list at /portal/news), the article page at /knowledge-details and the
 * content management screen at /content-management.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { Panels } from './Panels';
import { Details } from './pages/Details';

/** The editor (Tiptap) is fetched only when content management opens. */
const ManagePage = lazy(() => import('./pages/Manage').then((m) => ({ default: m.Manage })));

function Manage() {
  return <Suspense fallback={<Spin />}><ManagePage /></Suspense>;
}

export default definePlugin({
  name: 'portal',
  routes: [
    { path: '/knowledge-details/*', Component: Details },
    { path: '/content-management/*', Component: Manage },
  ],
  slots: { portalPanel: { span: 24, Component: Panels } },
});
