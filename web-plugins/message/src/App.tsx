/**
 * The message plugin's federated module (`./App`): the navbar bell (slot `navbarItem`), the letters page
 * at /letters (slot `page`) and the administrators' screen under /message-management.
 */
import { bus, definePlugin, session } from '@atrium/sdk';
import { Bell } from './components/Bell';
import { live } from './live';
import { Admin } from './pages/Admin';
import { Letters } from './pages/Letters';
import { inbox } from './store';

export default definePlugin({
  name: 'message',
  routes: [
    { path: '/letters', Component: Letters },
    { path: '/message-management/*', Component: Admin },
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
