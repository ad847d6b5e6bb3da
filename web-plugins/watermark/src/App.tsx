/**
 * The watermark plugin's federated module (`./App`): the overlay slot drawn over every page, the settings
 * screen at /system_manage/watermark, and files previewed with the watermark stamped in at /watermark-preview.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { Overlay } from './Overlay';

// The screens load when opened: the overlay is on every page, the screens are not.
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.Settings })));
const FilePreviewPage = lazy(() => import('./pages/FilePreview').then((m) => ({ default: m.FilePreview })));

function Settings() {
  return <Suspense fallback={<Spin />}><SettingsPage /></Suspense>;
}

function FilePreview() {
  return <Suspense fallback={<Spin />}><FilePreviewPage /></Suspense>;
}

export default definePlugin({
  name: 'watermark',
  routes: [
    { path: '/system_manage/watermark/*', Component: Settings },
    { path: '/watermark-preview/*', Component: FilePreview },
  ],
  slots: { overlay: Overlay },
});
