/**
 * The message plugin's federated module (`./App`): the navbar bell (slot `navbarItem`), the letters page
 * at /letters (slot `page`) and the administrators' screen under /message-management.
 */
import { type ComponentType, lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { bus, definePlugin, type PluginRouteProps, session } from '@atrium/sdk';
import { Bell } from './components/Bell';
import { live } from './live';
import { inbox } from './store';

// The pages load when opened: the bell is on every page, the lists and forms behind it are not.
const Letters = lazy(() => import('./pages/Letters').then((m) => ({ default: m.Letters })));
const Admin = lazy(() => import('./pages/Admin').then((m) => ({ default: m.Admin })));

function opened(Page: ComponentType): ComponentType<PluginRouteProps> {
  return function OpenedPage() {
    return <Suspense fallback={<Spin />}><Page /></Suspense>;
  };
}

export default definePlugin({
  name: 'message',
  routes: [
    { path: '/letters', Component: opened(Letters) },
    { path: '/message-management/*', Component: opened(Admin) },
  ],
  slots: { navbarItem: Bell },
  setup() {
    // signed out by the shell: no more pushes for this page; a new token or system: subscribe anew
    bus.on('logout', () => {
      live.stop();
      inbox.reset();
    });
    session.subscribe(() => live.refresh());
  },
});
