import { test } from 'node:test';
import assert from 'node:assert/strict';
import './windowShim';
import { harness, json } from './helpers';
import { setBaseHref } from './shims';
import { appPath, appUrl, basePath, configureRequest, request, session, setCookie } from '../../sdk/web/src/index';
import { earlyFetch, earlyUrls, startEarlyCalls } from '../../web-host/src/early';
import { remoteEntryUrl } from '../../web-host/src/plugins/registry';

const g = globalThis as any;

test('at a site root every platform address is asked for as written', () => {
  setBaseHref('/');
  assert.equal(basePath(), '');
  assert.equal(appUrl('/api/base/x'), '/api/base/x');
  assert.equal(appPath('/home'), '/home');
  setBaseHref(undefined);
  assert.equal(appUrl('/login'), '/login');
});

test('under /atrium/ the platform addresses go under the prefix and nothing else does', () => {
  setBaseHref('/atrium/');
  try {
    assert.equal(basePath(), '/atrium');
    assert.equal(appUrl('/api/base/x?y=1'), '/atrium/api/base/x?y=1');
    assert.equal(appUrl('/atrium/api/base/x'), '/atrium/api/base/x', 'an address already under it stays');
    assert.equal(appUrl('/atrium-old/x'), '/atrium/atrium-old/x');
    for (const other of ['https://idp.example/authorize', '//cdn.example/x.js', 'data:image/png;base64,AA', 'blob:x', 'help?x=1']) {
      assert.equal(appUrl(other), other);
    }
    assert.equal(appPath('/atrium/report/preview/7'), '/report/preview/7');
    assert.equal(appPath('/atrium'), '/');
    assert.equal(appPath('/elsewhere'), '/elsewhere');
    assert.equal(remoteEntryUrl({ name: 'files' } as any), '/atrium/plugins/files/remoteEntry.js');
  } finally {
    setBaseHref(undefined);
  }
});

test('under a prefix the request client asks under it and names the controller without it', async () => {
  const h = harness(() => json({ code: 800, msg: 'ok', data: 1 }));
  setBaseHref('/atrium/');
  try {
    assert.equal(await request('base/base-user/get-login-user'), 1);
    assert.equal(h.calls[0].url, '/atrium/api/base/base-user/get-login-user');
    assert.equal(h.calls[0].headers.controllerURL, '/base-user/get-login-user');
  } finally {
    setBaseHref(undefined);
  }
});

test('under a prefix the cookies the page sets belong to its path only', () => {
  const written: string[] = [];
  const doc = g.document;
  g.document = { ...doc, set cookie(v: string) { written.push(v); }, get cookie() { return ''; }, querySelector: doc.querySelector };
  setBaseHref('/atrium/');
  try {
    setCookie('Atrium-Token', 't', 1);
    assert.match(written[0], /; path=\/atrium;/);
  } finally {
    g.document = doc;
    setBaseHref(undefined);
  }
});

test('under a prefix the early calls go out under it and are handed to the shell asking under it', async () => {
  harness(() => json({ code: 800, msg: 'ok', data: null }));
  setBaseHref('/atrium/');
  const network: string[] = [];
  g.window = { location: { search: '', pathname: '/atrium/home' } };
  g.fetch = async (url: string) => {
    network.push(String(url));
    return json({ code: 800, msg: 'ok', data: { early: true } });
  };
  try {
    session.setTokens('tok-1', 'ref-1');
    session.setUser({ userId: '1', tenantId: '1001', isSuperAdmin: 0 } as any);
    setCookie('language', 'en-us', 30);
    assert.ok(startEarlyCalls());
    const early = earlyUrls('en-us', 'iotAutho', '1001');
    assert.ok(network.length > 0 && network.every((u) => u.startsWith('/atrium/')), network.join(', '));
    assert.ok(network.includes(`/atrium${early.i18n[0]}`));
    network.length = 0;
    configureRequest({ fetch: earlyFetch as typeof fetch });
    const user = await request<{ early?: boolean }>('base/base-user/get-login-user');
    assert.deepEqual(user, { early: true });
    assert.deepEqual(network, [], 'the early answer was used, not asked again');
    await request('base/no-early-call');
    assert.deepEqual(network, ['/atrium/api/base/no-early-call']);
  } finally {
    setBaseHref(undefined);
  }
});
