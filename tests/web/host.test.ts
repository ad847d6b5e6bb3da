import { test } from 'node:test';
import assert from 'node:assert/strict';
import './shims';
import { avatarText, buildMenuIndex, fillFrameUrl, findMenu, isHiddenMenu, menuPath, shortName } from '../../web-host/src/menus';

const m = (menuId: number, extra: Record<string, unknown> = {}) => ({ menuId, menuName: `m${menuId}`, ...extra }) as any;

test('menu paths: plain, external frame, dynamic form with layout', () => {
  assert.equal(menuPath(m(1, { menuUrl: 'system_manage/user' })), '/system_manage/user');
  assert.equal(menuPath(m(2, { menuUrl: 'https://x.example/?t={token}' })), '/third-view/2');
  assert.equal(
    menuPath(m(3, { menuUrl: '/form-design/render', parameter: '{"menu_type":"DYNAMIC_FORM","diy_code":"leave","layout_code":"L1"}' })),
    '/form-design/render/leave?layoutId=L1',
  );
  assert.equal(menuPath(m(4, { menuUrl: 'dynamic-form/render', parameter: { menu_type: 'DYNAMIC_FORM', diy_code: 'x' } })), '/dynamic-form/render/x');
});

test('rule-engine is always hidden; api-analytics only with the chat flag', () => {
  assert.equal(isHiddenMenu(m(1, { menuCode: 'rule-engine' }), true), true);
  assert.equal(isHiddenMenu(m(2, { menuUrl: '/api-center/api-analytics' }), false), true);
  assert.equal(isHiddenMenu(m(2, { menuUrl: '/api-center/api-analytics' }), true), false);
});

test('the index is built once from the tree and finds menus by path', () => {
  const tree = [m(1, { children: [m(2, { menuUrl: 'system_manage/user' }), m(3, { menuCode: 'rule-engine', menuUrl: 'rule-engine' }), m(4, { menuUrl: 'https://x.example' })] })];
  const index = buildMenuIndex(tree, false);
  assert.equal(index.tree[0].children!.length, 2);
  assert.equal(findMenu(index, '/system_manage/user')!.menuId, 2);
  assert.equal(findMenu(index, '/system_manage/user/detail/9')!.menuId, 2);
  assert.equal(findMenu(index, '/third-view/4')!.frameUrl, 'https://x.example');
  assert.deepEqual(index.parents.get('2'), ['1']);
});

test('frame placeholders are filled', () => {
  const url = fillFrameUrl('https://p.example/?t={token}&m={menuId}&s={systemCode}&u={userFullName}&z={unknown}', {
    token: 'abc', menuId: 4, systemCode: 'iotAutho', user: { userFullName: '张 三' },
  });
  assert.equal(url, 'https://p.example/?t=abc&m=4&s=iotAutho&u=%E5%BC%A0%20%E4%B8%89&z={unknown}');
});

test('names are cut to 8 characters; the avatar shows the last character', () => {
  assert.equal(shortName('Alexandria Ocasio'), 'Alexandr...');
  assert.equal(shortName('平台管理员'), '平台管理员');
  assert.equal(avatarText('平台管理员'), '员');
  assert.equal(avatarText('alice'), 'A');
  assert.equal(avatarText('Alice Zhang'), 'AZ');
  assert.equal(avatarText(''), '?');
});

import { BROWSER_TIP_KEY, browserTipDue, browserTipShown, isWorkChatAgent } from '../../web-host/src/layout/browserTip';
import { fetchEntryKey, fetchEntryPath, isFetchMenu, loadMenuFetch, parseFetchEntryKey, resetMenuFetch } from '../../web-host/src/layout/menuFetch';
import { linkOutdated, previewPanelId } from '../../web-host/src/links';
import { harness, json } from './helpers';

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

test('the browser tip is shown once, and never in work-chat browsers', () => {
  localStorage.clear();
  assert.equal(browserTipDue(CHROME), false);
  for (const ua of [`${SAFARI} wxwork/4.1`, `${SAFARI} DingTalk/7.0`, `${SAFARI} Feishu/7.1`, `${SAFARI} Lark/7.1`]) {
    assert.equal(isWorkChatAgent(ua), true, ua);
    assert.equal(browserTipDue(ua), false, ua);
  }
  assert.equal(browserTipDue(SAFARI), true);
  browserTipShown();
  assert.ok(localStorage.getItem(BROWSER_TIP_KEY));
  assert.equal(browserTipDue(SAFARI), false);
  localStorage.clear();
});

test('fetch menus: which menus, where entries go, their menu keys', () => {
  assert.equal(isFetchMenu({ menuId: 1, menuName: 'a', isFetch: 1 }), true);
  assert.equal(isFetchMenu({ menuId: 1, menuName: 'a', isFetch: true }), true);
  assert.equal(isFetchMenu({ menuId: 1, menuName: 'a', isFetch: 0 }), false);
  const menu = { menuId: 7, menuName: 'Partners', path: '/third-view/7', fetchPath: 'partners/list?x=1' };
  assert.equal(fetchEntryPath(menu, { menuFetchId: '12', fetchItemName: 'A' }), '/partners/list?x=1&menuFetchId=12');
  assert.equal(fetchEntryPath({ ...menu, fetchPath: '' }, { menuFetchId: '12', fetchItemName: 'A' }), '/third-view/7?menuFetchId=12');
  assert.equal(fetchEntryPath({ ...menu, fetchPath: 'https://x.example/' }, { menuFetchId: '3', fetchItemName: 'A' }), '/third-view/7?menuFetchId=3');
  assert.equal(fetchEntryPath({ menuId: 8, menuName: 'x' }, { menuFetchId: '3', fetchItemName: 'A' }), undefined);
  assert.deepEqual(parseFetchEntryKey(fetchEntryKey(7, 12)), { menuId: '7', entryId: '12' });
  assert.equal(parseFetchEntryKey('7'), undefined);
});

test('fetch menu entries are asked once with params menuId', async () => {
  resetMenuFetch();
  const h = harness(() => json({ code: 800, data: [{ menuFetchId: '12', fetchItemName: 'Partner', fetchExpand: {} }] }));
  const first = await loadMenuFetch(7);
  const again = await loadMenuFetch('7');
  assert.equal(first.length, 1);
  assert.equal(again, first);
  assert.equal(h.calls.length, 1);
  assert.match(h.calls[0].url, /base\/base-menu-fetch\/find-list$/);
  assert.equal(h.calls[0].init.method, 'POST');
  assert.deepEqual(h.calls[0].body, { params: { menuId: 7 } });
  resetMenuFetch();
});

test('a link whose time is out; a preview that names no panel', () => {
  const now = Date.UTC(2026, 0, 1);
  assert.equal(linkOutdated(null, now), false);
  assert.equal(linkOutdated('soon', now), false);
  assert.equal(linkOutdated(String(now - 1), now), true);
  assert.equal(linkOutdated(String(now + 60000), now), false);
  assert.equal(linkOutdated(String(Math.floor(now / 1000) - 5), now), true);
  assert.equal(previewPanelId('/dynamic-report/preview/abc'), 'abc');
  assert.equal(previewPanelId('/dynamic-report/preview/'), '');
  assert.equal(previewPanelId('/dynamic-report/preview'), '');
});

import { tenantDomain } from '../../web-host/src/sso/api';

test('the tenant is found by the host name\'s last two labels by default (domain level 2)', () => {
  assert.equal(tenantDomain('portal.acme.example'), 'acme.example');
  assert.equal(tenantDomain('acme.localhost'), 'acme.localhost');
  assert.equal(tenantDomain('a.b.acme.example', 3), 'b.acme.example');
  assert.equal(tenantDomain('localhost'), 'localhost');
  assert.equal(tenantDomain('127.0.0.1'), '127.0.0.1');
  assert.equal(tenantDomain('[::1]'), '[::1]');
});
