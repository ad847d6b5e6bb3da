/**
 * The watermark plugin's federated module (`./App`): the overlay slot drawn over every page, and the
 * settings screen at /system_manage/watermark.
 */
import { definePlugin } from '@atrium/sdk';
import { Overlay } from './Overlay';
import { Settings } from './pages/Settings';

export default definePlugin({
  name: 'watermark',
  routes: [{ path: '/system_manage/watermark/*', Component: Settings }],
  slots: { overlay: Overlay },
});
