import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, json } from './helpers';
import {
  REFRESH_COOKIE, TOKEN_COOKIE, fromBase64Utf8, getCookie, local, request, session, setPageContext,
} from '../../sdk/web/src/index';

test('every request carries the spec headers', async () => {
  const h = harness(() => json({ code: 800, msg: 'ok', data: 1 }));
  session.setTokens('acc-1', 'ref-1');
  setPageContext({ menuId: 42, requestMenuUrl: '/system_manage/user', pageName: '用户管理', pageEnName: 'Users' });
  await request('base/base-user/get-login-user');
  const { headers, url } = h.calls[0];
  assert.equal(url, '/api/base/base-user/get-login-user');
  assert.equal(headers.language, 'zh#cn');
  assert.equal(headers.authorization, 'acc-1');
  assert.equal(headers.refreshAuthorization, 'ref-1');
  assert.equal(headers.systemCode, 'iotAutho');
  assert.equal(headers.loginForm, 'PC');
  assert.equal(headers.menuId, '42');
  assert.equal(headers.requestMenuUrl, '/system_manage/user');
  assert.equal(fromBase64Utf8(headers.pageName), '用户管理');
  assert.equal(fromBase64Utf8(headers.pageEnName), 'Users');
  assert.equal(headers.controllerURL, '/base-user/get-login-user');
});

test('a plain object body is wrapped as {params}', async () => {
  const h = harness(() => json({ code: 800, msg: 'ok', data: null }));
  await request.post('portal/portal-favourite/save-one-click', { menuId: 1 });
  assert.deepEqual(h.calls[0].body, { params: { menuId: 1 } });
  assert.equal(h.calls[0].url, '/api/portal/portal-favourite/save-one-click');
  await request.post('base/x', { params: { a: 1 }, pageIndex: 1 });
  assert.deepEqual(h.calls[1].body, { params: { a: 1 }, pageIndex: 1 });
  await request('base/y', { method: 'POST', data: { keys: ['a'] }, wrap: false });
  assert.deepEqual(h.calls[2].body, { keys: ['a'] });
});

test('query parameters are encoded', async () => {
  const h = harness(() => json({ code: 800, msg: 'ok', data: [] }));
  await request.get('base/base-rolemenu/get-keyword', { keyword: '用户 管理', systemCode: 'iotAutho', skip: undefined });
  assert.equal(h.calls[0].url, '/api/base/base-rolemenu/get-keyword?keyword=%E7%94%A8%E6%88%B7+%E7%AE%A1%E7%90%86&systemCode=iotAutho');
});

test('codes 800 and 200 succeed with data; raw gives the envelope', async () => {
  let code = 800;
  harness(() => json({ code, msg: 'done', data: { a: 1 } }));
  assert.deepEqual(await request('base/a'), { a: 1 });
  code = 200;
  assert.deepEqual(await request('base/a'), { a: 1 });
  const env = await request<any>('base/a', { raw: true });
  assert.equal(env.msg, 'done');
});

test('a refusal shows the server msg and rejects with its code', async () => {
  const h = harness(() => json({ code: 1003, msg: '该系统已禁用', data: null }));
  await assert.rejects(request('base/a'), (err: any) => err.code === 1003 && err.message === '该系统已禁用');
  assert.deepEqual(h.notes, [{ type: 'error', text: '该系统已禁用' }]);
  await assert.rejects(request('base/a', { silent: true }));
  assert.equal(h.notes.length, 1);
});

test('a failure without msg gets a stock message, never raw JSON', async () => {
  const h = harness(() => new Response('<html>bad gateway</html>', { status: 502 }));
  await assert.rejects(request('base/a'));
  assert.equal(h.notes.length, 1);
  assert.match(h.notes[0].text, /System exception/);
});

test('renewed tokens in response headers are stored', async () => {
  harness(() => json({ code: 800, msg: 'ok', data: 1 }, { authorization: 'acc-2', 'refresh-authorization': 'ref-2' }));
  session.setTokens('acc-1', 'ref-1');
  await request('base/a');
  assert.equal(getCookie(TOKEN_COOKIE), 'acc-2');
  assert.equal(getCookie(REFRESH_COOKIE), 'ref-2');
  assert.equal(session.getToken(), 'acc-2');
});

test('code -1 remembers the address, clears the session and goes to /login after 2 s', async () => {
  const h = harness(() => json({ code: -1, msg: 'not logged in', data: null }));
  session.signIn({ authorization: 'acc', 'refresh-authorization': 'ref', userId: 1, userFullName: 'Ann' });
  await assert.rejects(request('base/a'), (err: any) => err.code === -1);
  // a second failure at the same time does not start a second flow
  await assert.rejects(request('base/b'));
  assert.equal(session.getToken(), undefined);
  assert.deepEqual(session.profile, {});
  assert.equal(local.get('atrium.redirect'), '/system_manage/user?q=1');
  assert.equal(h.notes.length, 1);
  assert.equal(h.timers.length, 1);
  assert.equal(h.timers[0].ms, 2000);
  assert.deepEqual(h.navigations, []);
  h.timers[0].fn();
  assert.deepEqual(h.navigations, ['/login']);
});

test('a lost-session answer to a request sent before a new sign-in does not end the new session', async () => {
  let answer: (r: Response) => void = () => undefined;
  const h = harness(() => new Promise<Response>((resolve) => { answer = resolve; }));
  session.setTokens('old', 'old-ref');
  const stale = request('base/a');
  session.clear();
  session.setTokens('new', 'new-ref');
  answer(json({ code: -1, msg: 'not logged in', data: null }));
  await assert.rejects(stale, (err: any) => err.code === -1);
  assert.equal(session.getToken(), 'new');
  assert.deepEqual(h.notes, []);
  assert.deepEqual(h.timers, []);
});

test('a sign-in within the 2 s before the redirect keeps the user on their page', async () => {
  const h = harness(() => json({ code: -1, msg: 'not logged in', data: null }));
  session.setTokens('acc', 'ref');
  await assert.rejects(request('base/a'), (err: any) => err.code === -1);
  assert.equal(session.getToken(), undefined);
  session.setTokens('again', 'again-ref');
  h.timers[0].fn();
  assert.deepEqual(h.navigations, []);
});

test('code -1 on /portal or an open route does not remember the address', async () => {
  const h = harness(() => json({ code: -1, msg: '', data: null }));
  h.location.pathname = '/portal';
  h.location.search = '';
  await assert.rejects(request('base/a'));
  assert.equal(local.get('atrium.redirect'), undefined);
  h.timers[0].fn();
  const h2 = harness(() => json({ code: -1, msg: '', data: null }));
  h2.location.pathname = '/sso/login';
  await assert.rejects(request('base/a'));
  assert.equal(local.get('atrium.redirect'), undefined);
});

test('code -1 with portalType sso redirects to the sso login URL', async () => {
  const h = harness(() => json({ code: -1, msg: '', data: null }));
  session.setTokens('acc', 'ref');
  session.setUser({ userFullName: 'Ann', portalType: 'sso', ssoType: 'oidc' });
  session.setSso({ urlLogin: 'https://idp.example/login' });
  await assert.rejects(request('base/a'));
  assert.deepEqual(h.assigned, ['https://idp.example/login']);
  assert.equal(session.getToken(), undefined);
});

test('code -1 with stored sso tokens calls sso logout and follows its URL', async () => {
  const h = harness((call) =>
    call.url.includes('logout-ssoapi') ? json({ code: 800, msg: '', data: 'https://idp.example/bye' }) : json({ code: -1, msg: '', data: null }),
  );
  session.setSso({ domainName: 'acme', ssoToken: 's1', ssoRefreshToken: 's2' });
  await assert.rejects(request('base/a'));
  await new Promise((r) => setTimeout(r, 10));
  const logoutCall = h.calls.find((c) => c.url.includes('logout-ssoapi'))!;
  assert.deepEqual(logoutCall.body, { params: { domain: 'acme', ssoToken: 's1', ssoRefreshToken: 's2' } });
  assert.deepEqual(h.assigned, ['https://idp.example/bye']);
  assert.equal(session.sso.ssoToken, undefined);
});

test('HTTP 401 is treated as not logged in', async () => {
  const h = harness(() => new Response('', { status: 401 }));
  session.setTokens('acc', 'ref');
  await assert.rejects(request('base/a'), (err: any) => err.code === -1);
  assert.equal(session.getToken(), undefined);
  assert.equal(h.timers.length, 1);
});

test('the language header follows the interface language', async () => {
  const { languageHeader } = await import('../../sdk/web/src/index');
  assert.equal(languageHeader('en-us'), 'en#us');
  assert.equal(languageHeader('hu-hu'), 'hu#hu');
});
