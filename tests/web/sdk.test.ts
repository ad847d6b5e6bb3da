import { test } from 'node:test';
import assert from 'node:assert/strict';
import './shims';
import {
  EventBus, SHARED, acceptPlugin, bus, closeAll, closeOthers, closeTab, definePlugin, globalSingleton, isCompatibleSdk,
  localeText, openTab, permissions, hasButton, session, REFRESH_COOKIE, TOKEN_COOKIE, type TabView,
} from '../../sdk/web/src/index';

const tab = (path: string, extra: Partial<TabView> = {}): TabView => ({ key: path, path, fullPath: path, title: path, ...extra });

test('tabs: opening the same path replaces the entry in place', () => {
  let tabs = [tab('/home', { affix: true }), tab('/a'), tab('/b')];
  tabs = openTab(tabs, tab('/a', { fullPath: '/a?x=1', title: 'A2' }));
  assert.deepEqual(tabs.map((t) => t.fullPath), ['/home', '/a?x=1', '/b']);
  tabs = openTab(tabs, tab('/a?y', { key: '/a?y', fullPath: '/a?y', isMultiTag: true }));
  assert.equal(tabs.length, 4);
});

test('tabs: home cannot be closed; closing the active tab goes to the last one or home', () => {
  const tabs = [tab('/home', { affix: true }), tab('/a'), tab('/b')];
  assert.equal(closeTab(tabs, '/home', '/home').refused, true);
  assert.deepEqual(closeTab(tabs, '/b', '/b'), { tabs: tabs.slice(0, 2), navigateTo: '/a' });
  assert.deepEqual(closeTab(tabs, '/a', '/b'), { tabs: [tabs[0], tabs[2]] });
  assert.equal(closeTab([tabs[0], tabs[1]], '/a', '/a').navigateTo, '/home');
});

test('tabs: close others keeps home and the tab; close all keeps home', () => {
  const tabs = [tab('/home', { affix: true }), tab('/a'), tab('/b'), tab('/c')];
  assert.deepEqual(closeOthers(tabs, '/b').map((t) => t.path), ['/home', '/b']);
  assert.deepEqual(closeAll(tabs), { tabs: [tabs[0]], navigateTo: '/home' });
});

test('definePlugin tags the module; acceptPlugin checks tag and SDK version', () => {
  const plugin = definePlugin({ name: 'demo', App: () => null });
  assert.equal(acceptPlugin({ default: plugin }).name, 'demo');
  assert.equal(acceptPlugin(plugin).name, 'demo');
  assert.throws(() => acceptPlugin({ default: { name: 'x' } }), /not an Atrium plugin/);
  assert.throws(() => acceptPlugin({ ...plugin, sdkVersion: '2.0.0' }), /SDK 2.0.0/);
  assert.equal(isCompatibleSdk('1.0.0', '1.2.0'), true);
  assert.equal(isCompatibleSdk('1.3.0', '1.2.0'), false);
});

test('the event bus delivers, unsubscribes and survives a failing handler', () => {
  const b = new EventBus();
  const got: unknown[] = [];
  const off = b.on('x', (p) => got.push(p));
  b.on('x', () => {
    throw new Error('boom');
  });
  const origError = console.error;
  console.error = () => undefined;
  b.emit('x', 1);
  console.error = origError;
  off();
  b.emit('x', 2);
  assert.deepEqual(got, [1]);
  let once = 0;
  b.once('y', () => once++);
  b.emit('y');
  b.emit('y');
  assert.equal(once, 1);
});

test('singletons live on globalThis so a second SDK copy shares them', () => {
  assert.equal(globalSingleton('bus', () => new EventBus()), bus);
  const key = Symbol.for('atrium.sdk.bus');
  assert.equal((globalThis as any)[key], bus);
});

test('hasButton follows the active menu; super administrators see all', async () => {
  permissions.superAdmin = false;
  permissions.set(7, [{ resourceCode: 'user:add' }]);
  await permissions.activate(7);
  assert.equal(hasButton('user:add'), true);
  assert.equal(hasButton('user:delete'), false);
  assert.equal(hasButton('user:add', 8), false);
  permissions.superAdmin = true;
  assert.equal(hasButton('anything'), true);
  permissions.superAdmin = false;
});

test('localeText reads JSON maps and plain text', () => {
  assert.equal(localeText('用户', { 'en-us': 'Users' }, 'en-us'), 'Users');
  assert.equal(localeText('用户', '{"en-us":"Users","zh-tw":"用戶"}', 'zh-tw'), '用戶');
  assert.equal(localeText('用户', 'Users', 'zh-cn'), '用户');
  assert.equal(localeText('用户', 'Users', 'hu-hu'), 'Users');
  assert.equal(localeText('用户', { 'en-us': 'Users' }, 'vi-vn'), 'Users');
});

test('SHARED lists every singleton of the architecture', () => {
  for (const name of ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'react-router', 'antd', 'i18next', 'react-i18next', '@atrium/sdk']) {
    assert.ok(SHARED[name], name);
  }
});

test('the token cookie lasts a day and the refresh cookie as long as the server keeps the refresh token', () => {
  const g = globalThis as any;
  const jar = g.document;
  const written: Record<string, number> = {};
  g.document = {
    get cookie(): string {
      return jar.cookie;
    },
    set cookie(value: string) {
      const name = decodeURIComponent(value.slice(0, value.indexOf('=')));
      const expires = /expires=([^;]+)/.exec(value)?.[1];
      if (expires) written[name] = (new Date(expires).getTime() - Date.now()) / 86_400_000;
      jar.cookie = value;
    },
  };
  try {
    session.signIn({ authorization: 'acc', 'refresh-authorization': 'ref', tokenMinutes: 720, refreshTokenMinutes: 14 * 1440 });
    assert.ok(Math.abs(written[TOKEN_COOKIE] - 1) < 0.01, `token cookie: ${written[TOKEN_COOKIE]} days`);
    assert.ok(Math.abs(written[REFRESH_COOKIE] - 14) < 0.01, `refresh cookie: ${written[REFRESH_COOKIE]} days`);
    session.setTokens('acc-2', 'ref-2'); // a renewal in a response's headers keeps the lifetimes it was told
    assert.ok(Math.abs(written[REFRESH_COOKIE] - 14) < 0.01);
    assert.equal(session.getRefreshToken(), 'ref-2');
  } finally {
    g.document = jar;
  }
});
