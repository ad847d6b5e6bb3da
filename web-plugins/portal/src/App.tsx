/**
 * The portal plugin's federated module (`./App`): the portal panels (slot `portalPanel`, which also
 * draws the company news list at /portal/news), the article page at /knowledge-details and the
 * content management screen at /content-management.
 */
import { definePlugin } from '@atrium/sdk';
import { Panels } from './Panels';
import { Details } from './pages/Details';
import { Manage } from './pages/Manage';

export default definePlugin({
  name: 'portal',
  routes: [
    { path: '/knowledge-details/*', Component: Details },
    { path: '/content-management/*', Component: Manage },
  ],
  slots: { portalPanel: { span: 24, Component: Panels } },
});
