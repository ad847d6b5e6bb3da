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
