import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import './shims';
import { resetBrowser } from './shims';
import { bus, configureRequest, session } from '../../sdk/web/src/index';
import { tracking, type TrackingOptions } from '../../sdk/web/src/tracking';
import { UNTRACKED_PATHS, trackingWhitelist } from '../../web-host/src/layout/trackingWhitelist';

type Listener = () => void;
const g = globalThis as any;
const windowListeners = new Map<string, Listener>();
g.window = {
  location: { pathname: '/letters', search: '' },
  screen: { width: 1920, height: 1080 },
  addEventListener: (name: string, fn: Listener) => windowListeners.set(name, fn),
  removeEventListener: (name: string) => windowListeners.delete(name),
};
Object.assign(g.document, { visibilityState: 'visible', addEventListener: () => undefined, removeEventListener: () => undefined });
g.requestAnimationFrame = (fn: () => void) => fn();
const sent: { url: string; body: { params: Record<string, unknown>[] } }[] = [];
g.fetch = async (url: string, init: RequestInit) => {
  sent.push({ url: String(url), body: JSON.parse(String(init.body)) });
  return new Response('{}');
};
configureRequest({ services: { log: '/api/log' } });

/** Signed in (or not), on `path`: the page is visited, left for /home, a marked button clicked, the tab hidden. */
function visitAndClick(path: string, options: Partial<TrackingOptions> = {}, signedIn = true): Record<string, unknown>[] {
  resetBrowser();
  if (signedIn) session.setTokens('tok-1', 'ref-1');
  g.window.location.pathname = path;
  sent.length = 0;
  const stop = tracking.start({ enabled: () => true, internal: () => false, ...options });
  bus.emit('route:changed', { path });
  tracking.click('save', 'letters:save');
  g.window.location.pathname = '/home';
  bus.emit('route:changed', { path: '/home' });
  g.window.location.pathname = path;
  windowListeners.get('pagehide')?.();
  stop();
  const records = sent.flatMap((s) => s.body.params);
  leaveSignedOut();
  return records;
}

/** Nothing is left over for the next visit: the open page is closed and the queue emptied while signed out. */
function leaveSignedOut(): void {
  resetBrowser();
  tracking.page({ path: '/home' });
  tracking.flush(false);
  sent.length = 0;
}
leaveSignedOut();

function paths(records: Record<string, unknown>[]): string[] {
  return records.filter((r) => r.routePath !== '/home').map((r) => `${r.eventType} ${r.routePath}`);
}

beforeEach(() => {
  delete g.ATRIUM_INTERNAL_NETWORK;
  delete g.ATRIUM_TRACKING_WHITELIST;
});

test('tracking: signed in with the flag on, the page visit and the click are sent to the log service', () => {
  const records = visitAndClick('/letters');
  assert.deepEqual(paths(records), ['3 /letters', '2 /letters']);
  assert.ok(sent.every((s) => s.url === '/api/log/tracking-web-page/tracking'));
  const visit = records.find((r) => r.eventType === 2)!;
  assert.equal(visit.trackType, 'page');
  assert.ok(typeof visit.pageStayTime === 'number' && visit.screenWidth === 1920);
  assert.equal(records.find((r) => r.eventType === 3)!.buttonName, 'save');
});

test('tracking: nothing is sent when signed out', () => {
  assert.deepEqual(visitAndClick('/letters', {}, false), []);
});

test('tracking: nothing is sent while the flag is off, and what was queued is dropped', () => {
  let on = false;
  assert.deepEqual(visitAndClick('/letters', { enabled: () => on }), []);
  on = true;
  tracking.flush(false);
  assert.deepEqual(sent, [], 'records queued while the flag was off are not sent later');
});

test('tracking: the sign-in page and open routes are never recorded', () => {
  assert.deepEqual(paths(visitAndClick('/login')), []);
  assert.deepEqual(paths(visitAndClick('/knowledge-details/12')), []);
});

test('tracking: whitelisted paths and everything under them are skipped, look-alike paths are not', () => {
  const whitelist = ['/help'];
  assert.deepEqual(paths(visitAndClick('/help', { whitelist })), []);
  assert.deepEqual(paths(visitAndClick('/help/faq', { whitelist })), []);
  assert.deepEqual(paths(visitAndClick('/helpdesk', { whitelist })), ['3 /helpdesk', '2 /helpdesk']);
});

test('tracking: nothing is sent on the internal network (the host says so, or the deployment marks it)', () => {
  assert.deepEqual(visitAndClick('/letters', { internal: () => true }), []);
  g.ATRIUM_INTERNAL_NETWORK = true;
  assert.deepEqual(visitAndClick('/letters', { internal: undefined }), []);
  delete g.ATRIUM_INTERNAL_NETWORK;
  assert.deepEqual(paths(visitAndClick('/letters', { internal: undefined })), ['3 /letters', '2 /letters']);
});

test("tracking: the host's whitelist skips its own pages and takes a deployment's additions", () => {
  assert.deepEqual(trackingWhitelist(), [...UNTRACKED_PATHS]);
  assert.deepEqual(paths(visitAndClick('/register', { whitelist: trackingWhitelist() })), []);
  g.ATRIUM_TRACKING_WHITELIST = ['/kiosk', 42, 'no-slash'];
  assert.deepEqual(trackingWhitelist(), [...UNTRACKED_PATHS, '/kiosk']);
  assert.deepEqual(paths(visitAndClick('/kiosk/board', { whitelist: trackingWhitelist() })), []);
  assert.deepEqual(paths(visitAndClick('/letters', { whitelist: trackingWhitelist() })), ['3 /letters', '2 /letters']);
});
