/**
 * The watermark plugin's federated module (`./App`): the overlay slot drawn over every page, and the
 * settings screen at /system_manage/watermark.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { Overlay } from './Overlay';

// The settings screen loads when opened: the overlay is on every page, the settings form is not.
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.Settings })));

function Settings() {
  return <Suspense fallback={<Spin />}><SettingsPage /></Suspense>;
}

export default definePlugin({
  name: 'watermark',
  routes: [{ path: '/system_manage/watermark/*', Component: Settings }],
  slots: { overlay: Overlay },
});
