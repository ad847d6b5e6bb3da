/**
 * The help plugin's federated module (`./App`): the navbar's help button (slot `navbarItem`), the help
 * drawer and chat side panel (slot `drawer`) and the help centre page at /help-center. The chat is cleared
 * when the user signs out.
 *
 * The listeners are registered when the module loads, whether the host loaded it for a slot or a page:
 * - `logout`, `tenant:switched`: the chat is stopped and forgotten;
 * - `help:document` ({@link HelpDocumentAsk}): the floating toolbar asks what to show for a page's menu
 *   without a user manual; the drawer opens whether the menu has a document or not (it then says that none
 *   exists yet), with the assistant below.
 *
 * The navbar button emits `help:open`, on which the shell opens its help drawer.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { bus, definePlugin, type MenuItem } from '@atrium/sdk';
import { HelpSlot } from './HelpSlot';
import { HelpButton, resetHelpButton } from './HelpButton';
import { stopAll } from './Chat';
import { chat } from './store';

// The help button is on every page; the help centre and its editors load when it is opened.
const Centre = lazy(() => import('./pages/HelpCentre').then((m) => ({ default: m.HelpCentre })));

function HelpCentrePage() {
  return (
    <Suspense fallback={<Spin />}>
      <Centre />
    </Suspense>
  );
}

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
  resetHelpButton();
});
bus.on('tenant:switched', () => {
  stopAll();
  chat.reset();
});
bus.on<HelpDocumentAsk>('help:document', (ask) => {
  if (ask.handled) return; // a copy of this module loaded for an earlier session answers already
  ask.handled = true;
  ask.open();
});

export default definePlugin({
  name: 'help',
  routes: [{ path: '/help-center/*', Component: HelpCentrePage }],
  slots: { navbarItem: HelpButton, drawer: HelpSlot },
});
