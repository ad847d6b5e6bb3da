import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPassword, LINK_STATE, linkIdFrom, linkState } from '../../../web-plugins/reports/src/model/link';
import { clickActions, drillStep, jumpProblem, linkageFilters, needsMenu, outerJumpUrl, trackFilters } from '../../../web-plugins/reports/src/model/jump';
import { clockText, commonBackground, gridBox, panelBackground, panelScale, scaleBox } from '../../../web-plugins/reports/src/model/layout';
import { exportTaskBody, runViewExport } from '../../../web-plugins/reports/src/api';

const ok = { hasPermission: true, resourceId: 'p1', valid: true, enablePwd: false, passPwd: false, expire: false };

test('link states follow spec 4 in order', () => {
  assert.deepEqual(linkState({ ...ok, hasPermission: false }), { state: LINK_STATE.error, reason: 'noPermission' });
  assert.deepEqual(linkState({ ...ok, hasPermission: false, valid: false }), { state: LINK_STATE.error, reason: 'invalid' });
  assert.deepEqual(linkState({ ...ok, valid: false }), { state: LINK_STATE.error, reason: 'invalid' });
  assert.deepEqual(linkState({ ...ok, resourceId: null }), { state: LINK_STATE.error, reason: 'invalid' });
  assert.equal(linkState({ ...ok, expire: true, enablePwd: true }).state, LINK_STATE.expired);
  assert.equal(linkState(ok).state, LINK_STATE.view);
  assert.equal(linkState({ ...ok, enablePwd: true }).state, LINK_STATE.password);
  assert.equal(linkState({ ...ok, enablePwd: true, passPwd: true }).state, LINK_STATE.view);
  assert.equal(linkState(null).state, LINK_STATE.error);
  assert.deepEqual([LINK_STATE.error, LINK_STATE.password, LINK_STATE.view, LINK_STATE.expired], [0, 1, 2, 3]);
});

test('the password is required and exactly four digits; the link id is the last segment', () => {
  assert.equal(checkPassword(''), 'required');
  assert.equal(checkPassword('12a4'), 'format');
  assert.equal(checkPassword('123'), 'format');
  assert.equal(checkPassword('0042'), null);
  assert.equal(linkIdFrom('/dynamic-report/link/AbC_123'), 'AbC_123');
  assert.equal(linkIdFrom('/dynamic-report/link/AbC_123/'), 'AbC_123');
  assert.equal(linkIdFrom('/report/preview', '?link=xyz'), 'xyz');
  assert.equal(linkIdFrom('/report/preview'), '');
});

test('layout: widths by the panel scale, heights by 115 percent of it', () => {
  const s = panelScale(800, 1600);
  assert.equal(s, 0.5);
  assert.deepEqual(scaleBox({ left: 100, top: 200, width: 400, height: 300 }, s), { left: 50, top: 115, width: 200, height: 173 });
  assert.equal(panelScale(1600, undefined), 1);
  assert.deepEqual(panelBackground({ panel: { backgroundType: 'color', color: '#abcdef' } }), { backgroundColor: '#abcdef' });
  assert.equal(panelBackground({ panel: { backgroundType: 'image', imageUrl: '/x.png' } }).backgroundImage, 'url("/x.png")');
});

test('common background: colour with alpha, padding, radius, or an image', () => {
  const off = commonBackground({ enable: false, color: '#fff' });
  assert.deepEqual(off, { outer: {}, inner: {} });
  const c = commonBackground({ enable: true, backgroundType: 'color', color: '#ff0000', alpha: 50, innerPadding: 10, borderRadius: 6 }, 0.5);
  assert.equal(c.outer.backgroundColor, 'rgba(255, 0, 0, 0.5)');
  assert.equal(c.outer.borderRadius, '6px');
  assert.equal(c.inner.padding, '5px');
  const img = commonBackground({ enable: true, backgroundType: 'outerImage', outerImage: '/bg.png' });
  assert.equal(img.outer.backgroundImage, 'url("/bg.png")');
});

test('tabs grid: 24 columns, rows of 30, margins of 10', () => {
  assert.deepEqual(gridBox({ x: 0, y: 0, w: 24, h: 1 }, 1010), { left: 10, top: 10, width: 990, height: 30 });
  assert.deepEqual(gridBox({ x: 12, y: 2, w: 12, h: 3 }, 1010), { left: 510, top: 90, width: 490, height: 110 });
});

test('clock: time and date formats, weekday', () => {
  const d = new Date(2024, 4, 15, 14, 5, 9);
  assert.deepEqual(clockText(d, { timeFormat: 'HH:mm:ss', showDate: true, dateFormat: 'yyyy/MM/dd', showWeek: true }), { time: '14:05:09', date: '2024/05/15', weekday: 3 });
  assert.deepEqual(clockText(d, { timeFormat: 'hh:mm a' }), { time: '02:05 PM' });
  assert.deepEqual(clockText(d, { timeFormat: 'hh:mm' }), { time: '14:05' });
});

test('click actions: drill only by default; a menu when more than one applies', () => {
  const v = { id: 'v1', drillFields: [{ id: 'region' }, { id: 'province' }, { id: 'city' }] };
  const dims = [{ id: 'region', value: 'East' }];
  assert.deepEqual(clickActions(v, dims, [], {}, {}), ['drill']);
  assert.equal(needsMenu(['drill']), false);
  const info = { 'v1#region': ['v2#region2'] };
  const jumps = { 'v1#region': { linkType: 'inner', targetPanelId: 'p2', publicJumpId: 'L' } };
  assert.deepEqual(clickActions(v, dims, [], info, jumps), ['drill', 'linkage', 'jump']);
  assert.equal(needsMenu(['drill', 'linkage']), true);
  // at the last level there is nothing left to drill
  assert.deepEqual(clickActions(v, [{ id: 'city', value: 'x' }], [{ fieldId: 'region', value: ['E'] }, { fieldId: 'province', value: ['P'] }], {}, {}), []);
});

test('drill steps use the count of drill filters', () => {
  const v = { drillFields: [{ id: 'region' }, { id: 'province' }, { id: 'city' }] };
  assert.deepEqual(drillStep(v, [], [{ id: 'region', value: 'East' }]), { fieldId: 'region', value: ['East'], label: 'East' });
  assert.deepEqual(drillStep(v, [{ fieldId: 'region', value: ['East'] }], [{ id: 'province', value: 'Zhejiang' }]), { fieldId: 'province', value: ['Zhejiang'], label: 'Zhejiang' });
});

test('linkage filters and jump track filters', () => {
  const info = { 'v1#region': ['v2#r2', 'v3#r3'] };
  assert.deepEqual(linkageFilters('v1', [{ id: 'region', value: 'East' }], info), {
    v2: [{ fieldId: 'r2', operator: 'eq', value: ['East'], viewIds: ['v2'], sourceViewId: 'v1' }],
    v3: [{ fieldId: 'r3', operator: 'eq', value: ['East'], viewIds: ['v3'], sourceViewId: 'v1' }],
  });
  const track = trackFilters({ sourceViewId: 'v1', dimensionList: [{ id: 'prov', value: '广东' }] }, { 'v1#prov': ['t1#p'] });
  assert.deepEqual(track, [{ fieldId: 'p', operator: 'eq', value: ['广东'], viewIds: ['t1'], sourceViewId: 'v1' }]);
});

test('jump warnings and outer addresses', () => {
  assert.equal(jumpProblem(undefined), 'noJumpInfo');
  assert.equal(jumpProblem({ linkType: 'inner' }), 'noTargetPanel');
  assert.equal(jumpProblem({ linkType: 'inner', targetPanelId: 'p' }), 'noPublicLink');
  assert.equal(jumpProblem({ linkType: 'inner', targetPanelId: 'p', publicJumpId: 'L' }), null);
  assert.equal(jumpProblem({ linkType: 'other', content: 'https://x.example' }), null);
  assert.equal(outerJumpUrl({ linkType: 'other', content: 'https://x.example/a?b=1', attachParams: true }, [{ id: 'f', value: 'A B' }], { f: 'Category' }), 'https://x.example/a?b=1&Category=A+B');
  assert.equal(outerJumpUrl({ linkType: 'other', content: 'https://x.example/a', attachParams: false }, [{ id: 'f', value: 'A' }], {}), 'https://x.example/a');
});

test('export: the spec\'s task settings, polled once a second until status 2, then downloaded', async () => {
  const body = exportTaskBody({ id: 'v1', title: 'Sales', name: 'sales' }, 'p1', [{ key: 'a', title: 'A' }], { filter: [] });
  assert.equal(body.url, 'api/dyreport/chart/view/exportData');
  assert.equal(body.singleSheetMaxRows, 100000);
  assert.equal(body.pageIndex, 1);
  assert.equal(body.pageRows, 1000);
  assert.equal(body.excelType, 'xlsx');
  assert.equal(body.method, 'POST');
  assert.deepEqual(body.params, { viewId: 'v1', panelId: 'p1', requestList: { filter: [] } });
  const calls: string[] = [];
  const sleeps: number[] = [];
  const statuses = [0, 1, 2];
  const downloads: string[] = [];
  await runViewExport(body, (url, name) => downloads.push(`${url} ${name}`), {
    sleep: async (ms) => void sleeps.push(ms),
    request: (async (path: string) => {
      calls.push(path);
      if (path.endsWith('export/')) return { exportId: 7 };
      const status = statuses.shift();
      return { status, downloadUrl: '/f/7', fileName: 'Sales.xlsx' };
    }) as any,
  });
  assert.deepEqual(sleeps, [1000, 1000, 1000]);
  assert.equal(calls.filter((c) => c.endsWith('get-export-result')).length, 3);
  assert.deepEqual(downloads, ['/f/7 Sales.xlsx']);
  await assert.rejects(
    runViewExport(body, () => undefined, { sleep: async () => undefined, request: (async (p: string) => (p.endsWith('export/') ? { exportId: 1 } : { status: 3, errorMsg: 'disk full' })) as any }),
    /disk full/,
  );
});
