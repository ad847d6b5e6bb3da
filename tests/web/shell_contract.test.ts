import { test } from 'node:test';
import assert from 'node:assert/strict';
import './shims';
import { BUILT_IN_LANGUAGES, hostLocale, languageOptions } from '../../web-host/src/languages';
import { configuredEmbedOrigins, requirementsQrSwitch, requirementsQrUrl, switchValue } from '../../web-host/src/config';
import { acceptOpenRoute, allowedOrigins, internalPath, parseOpenRoute } from '../../web-host/src/layout/embedRoutes';
import { isFullscreenQuery, withoutFullscreen } from '../../web-host/src/layout/fullscreen';
import { forgetRoutes, rememberRoute, rememberedRoute } from '../../web-host/src/layout/routeMemory';
import { routeInfo, tabFor } from '../../web-host/src/layout/tabView';
import { buildMenuIndex, findMenu, frameMenuAt, menuPath, menuRoute } from '../../web-host/src/menus';

const OWN = 'https://atrium.example';

test('the language dictionary names the languages offered, in its order, only those the host can show', () => {
  const items = [
    { dicCode: 'en_US', dicName: 'English' },
    { dicCode: 'fr-fr', dicName: 'Français' },
    { dicCode: 'zh#cn', dicName: '简体中文' },
    { dicCode: 'EN-US', dicName: 'English again' },
    { dicCode: 'hu-hu' },
  ];
  assert.deepEqual(languageOptions(items), [
    { locale: 'en-us', label: 'English' },
    { locale: 'zh-cn', label: '简体中文' },
    { locale: 'hu-hu', label: 'Magyar' },
  ]);
  assert.equal(hostLocale('fr-fr'), undefined);
  assert.equal(hostLocale(undefined), undefined);
});

test('an empty or unusable dictionary falls back to the five built-in languages', () => {
  assert.deepEqual(languageOptions([]), BUILT_IN_LANGUAGES);
  assert.deepEqual(languageOptions(null), BUILT_IN_LANGUAGES);
  assert.deepEqual(languageOptions([{ dicCode: 'de-de', dicName: 'Deutsch' }]), BUILT_IN_LANGUAGES);
  assert.equal(BUILT_IN_LANGUAGES.length, 5);
});

test('the requirements QR switch reads SHOW_REQUIREMENT_QR, then the older key', () => {
  assert.equal(requirementsQrSwitch({}), undefined);
  assert.equal(requirementsQrSwitch({ requirementsQr: true }), true);
  assert.equal(requirementsQrSwitch({ SHOW_REQUIREMENT_QR: 'true' }), true);
  assert.equal(requirementsQrSwitch({ SHOW_REQUIREMENT_QR: 'false', requirementsQr: true }), false);
  assert.equal(switchValue('1'), true);
  assert.equal(switchValue(0), false);
  assert.equal(requirementsQrUrl(OWN, {}), `${OWN}/portal?from=requirements`);
  assert.equal(requirementsQrUrl(OWN, { requirementsQrUrl: 'https://survey.example/q' }), 'https://survey.example/q');
});

test('embed origins: the shell\'s own and the configured ones, never a wildcard', () => {
  assert.deepEqual(configuredEmbedOrigins({ embedOrigins: ' https://a.example , https://b.example:8443' }), ['https://a.example', 'https://b.example:8443']);
  assert.deepEqual(configuredEmbedOrigins({ embedOrigins: ['https://a.example', 7] }), ['https://a.example']);
  const origins = allowedOrigins(OWN, ['https://a.example/', '*', 'https://*.b.example', 'javascript:alert(1)', 'nonsense']);
  assert.deepEqual([...origins].sort(), ['https://a.example', OWN].sort());
});

test('an open-route message names an internal path only', () => {
  assert.equal(internalPath('/system_manage/user?x=1', OWN)?.pathname, '/system_manage/user');
  for (const bad of ['javascript:alert(1)', 'https://evil.example/x', '//evil.example/x', '/\\evil.example', 'system_manage', '/a\nb', '', 7]) {
    assert.equal(internalPath(bad, OWN), undefined, String(bad));
  }
  assert.deepEqual(parseOpenRoute({ type: 'atrium:open-route', path: '/reports/view?a=1', title: ' Quarter ', query: { id: 7, open: true } }, OWN), {
    fullPath: '/reports/view?a=1&id=7&open=true',
    pathname: '/reports/view',
    title: 'Quarter',
    enTitle: undefined,
  });
  assert.equal(parseOpenRoute({ type: 'other', path: '/home' }, OWN), undefined);
  assert.equal(parseOpenRoute({ type: 'atrium:open-route', path: '/home', query: { a: { b: 1 } } }, OWN), undefined);
  assert.equal(parseOpenRoute('atrium:open-route', OWN), undefined);
});

test('open-route messages are accepted from allowed origins only', () => {
  const data = { type: 'atrium:open-route', path: '/letters' };
  assert.equal(acceptOpenRoute({ data, origin: OWN }, OWN, [])?.fullPath, '/letters');
  assert.equal(acceptOpenRoute({ data, origin: 'https://evil.example' }, OWN, []), undefined);
  assert.equal(acceptOpenRoute({ data, origin: 'https://host.example' }, OWN, ['https://host.example'])?.fullPath, '/letters');
  assert.equal(acceptOpenRoute({ data, origin: 'null' }, OWN, ['null']), undefined);
});

test('full screen by query parameter, and the query without it', () => {
  assert.equal(isFullscreenQuery('?fullscreen'), true);
  assert.equal(isFullscreenQuery('?fullscreen=1'), true);
  assert.equal(isFullscreenQuery('?fullscreen=false'), false);
  assert.equal(isFullscreenQuery('?fullscreen=0'), false);
  assert.equal(withoutFullscreen('?a=1&fullscreen=1'), '?a=1');
  assert.equal(withoutFullscreen('?fullscreen=1'), '');
});

const m = (menuId: number, extra: Record<string, unknown> = {}) => ({ menuId, menuName: `m${menuId}`, ...extra }) as any;

test('an external menu gives its route from menuCode and opens its frame page', () => {
  const partner = m(4, { menuCode: 'partner-site', menuName: '合作伙伴', menuEnName: 'Partners', menuUrl: 'https://partner.example/?t={token}' });
  assert.equal(menuRoute(partner), '/partner-site');
  assert.equal(menuPath(partner), '/third-view/4');
  assert.equal(menuRoute(m(5, { menuCode: 'users', menuUrl: '/system_manage/user/' })), '/system_manage/user');
  assert.equal(menuRoute(m(6, { menuUrl: 'https://x.example' })), undefined);
  const index = buildMenuIndex([m(1, { children: [partner, m(2, { menuCode: 'users', menuUrl: 'system_manage/user' })] })], false);
  assert.equal(findMenu(index, '/partner-site')?.menuId, 4);
  assert.equal(frameMenuAt(index, '/partner-site')?.menuId, 4);
  assert.equal(frameMenuAt(index, '/system_manage/user'), undefined);
  assert.equal(findMenu(index, '/third-view/4')?.menuId, 4);
});

test('a tab keeps its name, meta.url and query', () => {
  const partner = m(4, { menuCode: 'partner-site', menuName: '合作伙伴', menuEnName: 'Partners', menuUrl: 'https://partner.example/' });
  const index = buildMenuIndex([partner, m(2, { menuCode: 'users', menuName: '用户', menuEnName: 'Users', menuUrl: 'system_manage/user' })], false);
  const tab = tabFor('/system_manage/user', '?dept=9&isMultiTag=true', index);
  assert.equal(tab.name, 'users');
  assert.equal(tab.key, '/system_manage/user?dept=9&isMultiTag=true');
  assert.deepEqual(tab.query, { dept: '9', isMultiTag: 'true' });
  assert.deepEqual(tab.meta, { menuId: 2, title: '用户', enTitle: 'Users', noCache: false, url: 'system_manage/user' });
  const frame = tabFor('/third-view/4', '', index);
  assert.equal(frame.meta?.url, 'https://partner.example/');
  assert.equal(frame.name, 'partner-site');
});

test('route info falls back to what was remembered when the tab opened', () => {
  sessionStorage.clear();
  const users = m(2, { menuCode: 'users', menuName: '用户', menuEnName: 'Users', menuUrl: 'system_manage/user' });
  const opened = tabFor('/system_manage/user', '', buildMenuIndex([users], false));
  rememberRoute('/system_manage/user', routeInfo(opened)!);
  // after a reload, before the menus load
  const reloaded = tabFor('/system_manage/user', '?page=2', null, rememberedRoute('/system_manage/user'));
  assert.equal(reloaded.title, '用户');
  assert.equal(reloaded.enTitle, 'Users');
  assert.equal(reloaded.menuId, 2);
  assert.equal(reloaded.name, 'users');
  assert.equal(reloaded.meta?.url, 'system_manage/user');
  // a route no one titled is titled by its path, and nothing is remembered for it
  const bare = tabFor('/somewhere', '', null, rememberedRoute('/somewhere'));
  assert.equal(bare.title, '/somewhere');
  assert.equal(routeInfo(bare), undefined);
  // signing out forgets them
  forgetRoutes();
  assert.equal(rememberedRoute('/system_manage/user'), undefined);
});
