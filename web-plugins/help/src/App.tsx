/**
 * The help plugin's federated module (`./App`): the help drawer and chat side panel (slot `drawer`) and
 * the help centre page at /help-center. The chat is cleared when the user signs out.
 */
import { bus, definePlugin } from '@atrium/sdk';
import { HelpSlot } from './HelpSlot';
import { stopAll } from './Chat';
import { HelpCentre } from './pages/HelpCentre';
import { chat } from './store';

export default definePlugin({
  name: 'help',
  routes: [{ path: '/help-center/*', Component: HelpCentre }],
  slots: { drawer: HelpSlot },
  setup() {
    bus.on('logout', () => {
      stopAll();
      chat.reset();
    });
    bus.on('tenant:switched', () => chat.reset());
  },
});
