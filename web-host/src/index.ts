import { startEarlyCalls } from './early';
import { loadLayout } from './layout/load';

const signedIn = startEarlyCalls();
// The async boundary: shared singletons (react, antd, the SDK, ...) are negotiated by Module Federation
// before any of them is evaluated.
import(/* webpackChunkName: "bootstrap" */ './bootstrap');
// A signed-in visit needs the layout and its components: downloaded beside the shell's own scripts.
if (signedIn) void loadLayout();
