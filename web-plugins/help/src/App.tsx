/**
 * The help plugin's federated module (`./App`): the help drawer and chat side panel (slot `drawer`) and
 * the help centre page at /help-center. The chat is cleared when the user signs out.
 *
 * The listeners are registered when the module loads, whether the host loaded it for a slot or a page:
 * - `logout`, `tenant:switched`: the chat is stopped and forgotten;
 * - `help:document` ({@link HelpDocumentAsk}): the floating toolbar asks whether the page's menu has a
 *   document; the drawer is opened when it has, else the toolbar's "no help document" message is shown.
 */
import { bus, definePlugin, type MenuItem } from '@atrium/sdk';
import { HelpSlot } from './HelpSlot';
import { stopAll } from './Chat';
import { HelpCentre } from './pages/HelpCentre';
import { docsForMenu } from './api';
import { chat } from './store';

export interface HelpDocumentAsk {
  menu: MenuItem;
  open: () => void;
  none: () => void;
  /** Set by the listener that takes the question. */
  handled: boolean;
}

bus.on('logout', () => {
  stopAll();
  chat.reset();
});
bus.on('tenant:switched', () => {
  stopAll();
  chat.reset();
});
bus.on<HelpDocumentAsk>('help:document', (ask) => {
  if (ask.handled) return; // a copy of this module loaded for an earlier session answers already
  ask.handled = true;
  const code = ask.menu.menuCode;
  if (!code) {
    ask.none();
    return;
  }
  docsForMenu(code)
    .then((docs) => (docs.length ? ask.open() : ask.none()))
    .catch(() => ask.none());
});

export default definePlugin({
  name: 'help',
  routes: [{ path: '/help-center/*', Component: HelpCentre }],
  slots: { drawer: HelpSlot },
});
