import { test } from 'node:test';
import assert from 'node:assert/strict';
import './windowShim';
import { harness, json } from './helpers';
import { session, setCookie, configureRequest } from '../../sdk/web/src/index';
import { EARLY_POSTS, earlyFetch, earlyUrls, startEarlyCalls, takeEarly } from '../../web-host/src/early';
import { bootstrapSession } from '../../web-host/src/api';
import { store } from '../../web-host/src/store';

const g = globalThis as any;

function answer(url: string): Response {
  if (url.endsWith('.json')) return json({});
  if (url.includes('get-login-user')) return json({ code: 800, msg: 'ok', data: { userId: '1', tenantId: '1001', isSuperAdmin: 0 } });
  if (url.includes('find-user-menus')) return json({ code: 800, msg: 'ok', data: { menus: [{ menuId: 1, menuName: 'Home', menuUrl: 'home' }] } });
  if (url.includes('manifest')) return json({ code: 800, msg: 'ok', data: { services: {}, plugins: [] } });
  return json({ code: 800, msg: 'ok', data: null });
}

test('the shell boots from the early answers: it uses every one of them and asks none again', async () => {
  harness((call) => answer(call.url));
  const network: string[] = [];
  g.window = { location: { search: '', pathname: '/home' } };
  g.fetch = async (url: string) => {
    network.push(String(url));
    return answer(String(url));
  };
  session.setTokens('tok-1', 'ref-1');
  session.setUser({ userId: '1', tenantId: '1001', isSuperAdmin: 0 } as any);
  setCookie('language', 'en-us', 30);
  startEarlyCalls();
  const asked: string[] = [];
  const late = async (url: string) => {
    asked.push(url);
    return answer(url);
  };
  const taken: string[] = [];
  const served = (url: string, init: RequestInit) => {
    const hit = takeEarly(url, init);
    if (hit) taken.push(url);
    return hit ?? late(url);
  };
  configureRequest({ fetch: served as typeof fetch });
  await bootstrapSession();
  const early = earlyUrls('en-us', 'iotAutho', '1001');
  const posts = EARLY_POSTS.map(([url]) => url);
  assert.ok(early.api.some((u) => u.includes('find-tenant-defined') && u.includes('tenantId=1001')));
  assert.deepEqual(network.sort(), [...early.api, ...early.i18n, ...posts].sort());
  assert.deepEqual(taken.sort(), [...early.api, ...posts].sort(), 'every early call is one the shell makes, with the same URL and body');
  const askedAgain = asked.filter((u) => early.api.includes(u) || posts.includes(u));
  assert.deepEqual(askedAgain, []);
  assert.ok(store.get().ready);
  assert.equal(store.get().menus.length, 1);
  // once booted, nothing early is left: the next boot asks the server
  assert.equal(takeEarly('/api/base/base-user/get-login-user'), undefined);
});

test('an early answer is not handed to a request with another token, language or method', async () => {
  harness(() => json({ code: 800, msg: 'ok', data: null }));
  g.window = { location: { search: '', pathname: '/home' } };
  g.fetch = async () => json({ code: 800, msg: 'ok', data: null });
  session.setTokens('tok-2', 'ref-2');
  setCookie('language', 'zh-cn', 30);
  startEarlyCalls();
  const url = '/api/base/base-user/get-login-user';
  const base = { authorization: 'tok-2', language: 'zh#cn', systemCode: 'iotAutho' };
  assert.equal(takeEarly(url, { headers: { ...base, authorization: 'other' } }), undefined);
  assert.equal(takeEarly(url, { headers: { ...base, language: 'en#us' } }), undefined);
  assert.equal(takeEarly(url, { method: 'POST', headers: base }), undefined);
  assert.ok(takeEarly(url, { headers: base }));
  assert.equal(takeEarly(url, { headers: base }), undefined);
  void earlyFetch;
});

test('the settings of another tenant than the remembered one, and a POST with another body, go to the server', async () => {
  harness(() => json({ code: 800, msg: 'ok', data: null }));
  g.window = { location: { search: '', pathname: '/home' } };
  g.fetch = async () => json({ code: 800, msg: 'ok', data: null });
  session.setTokens('tok-4', 'ref-4');
  session.setUser({ userId: '1', tenantId: '1001', isSuperAdmin: 0 } as any);
  setCookie('language', 'en-us', 30);
  startEarlyCalls();
  const base = { authorization: 'tok-4', language: 'en#us', systemCode: 'iotAutho' };
  const setting = '/api/base/base-tenant-system/find-tenant-defined?systemCode=iotAutho&tenantId=';
  assert.equal(takeEarly(`${setting}2002`, { headers: base }), undefined);
  assert.ok(takeEarly(`${setting}1001`, { headers: base }));
  const [[url, body]] = EARLY_POSTS;
  assert.equal(takeEarly(url, { method: 'POST', body: '{"params":{"other":1}}', headers: base }), undefined);
  assert.equal(takeEarly(url, { headers: base }), undefined, 'a GET is not handed the answer of a POST');
  assert.ok(takeEarly(url, { method: 'POST', body, headers: base }));
  assert.equal(takeEarly(url, { method: 'POST', body, headers: base }), undefined);
});

test('without a remembered tenant the settings are not asked early', () => {
  session.setUser(undefined);
  assert.ok(!earlyUrls('en-us', 'iotAutho').api.some((u) => u.includes('find-tenant-defined')));
});

test('no session cookie, or a token handed over in the URL: nothing starts early', () => {
  harness(() => json({ code: 800, msg: 'ok', data: null }));
  const started: string[] = [];
  g.fetch = async (url: string) => {
    started.push(url);
    return json({});
  };
  g.window = { location: { search: '', pathname: '/login' } };
  startEarlyCalls();
  session.setTokens('tok-3', 'ref-3');
  g.window = { location: { search: '?token=abc', pathname: '/home' } };
  startEarlyCalls();
  assert.deepEqual(started, []);
});
