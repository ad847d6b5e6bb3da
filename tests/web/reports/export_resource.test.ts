import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, json, type Call } from '../helpers';
import { permissions } from '../../../sdk/web/src/index';
import { clearResourceIds, exportViews, resourceIdFor } from '../../../web-plugins/reports/src/panel/exporting';
import { EXPORT_BUTTON } from '../../../web-plugins/reports/src/panel/exportGrant';
import type { ChartView } from '../../../web-plugins/reports/src/model/types';

const ok = (data: unknown) => json({ code: 800, msg: 'ok', data });
const noSleep = async () => undefined;

const view = {
  id: 'v1',
  name: 'sales',
  title: 'Sales',
  type: 'table-normal',
  data: {
    fields: [
      { id: 'f1', name: 'Region', dataeaseName: 'region', key: 'region', type: 'text' },
      { id: 'f2', name: 'Amount', dataeaseName: 'amount', key: 'amount', type: 'float' },
    ],
    tableRow: [{ region: 'East', amount: 1 }],
  },
} as unknown as ChartView;

/** The server: the menu's button resources, one export task finished at the first poll. */
function server(extra: (c: Call) => Response | undefined = () => undefined) {
  return harness((c) => {
    const answer = extra(c);
    if (answer) return answer;
    if (c.url.includes('base/resource/find-resource')) {
      return ok([
        { resourceId: '77', resourceCode: EXPORT_BUTTON, resourceName: '导出' },
        { resourceId: '78', resourceCode: 'dyreport:manage', resourceName: '管理' },
      ]);
    }
    if (c.url.includes('get-export-result')) return ok({ exportId: 3, status: 2, fileName: 'Sales.xlsx', url: '/s/3', downloadUrl: '/signed/3' });
    if (c.url.includes('/export/')) return ok({ exportId: 3, status: 0 });
    return ok(null);
  });
}

function reset(): void {
  permissions.clear();
  permissions.superAdmin = false;
  clearResourceIds();
}

test('an export body carries the resource id of the page menu export button (spec 6, 7.2)', async () => {
  reset();
  const h = server();
  permissions.set('40', [{ resourceCode: EXPORT_BUTTON, resourceId: 77 }, { resourceCode: 'dyreport:manage' }]);
  await permissions.activate('40');
  // what the SDK keeps in session storage: the codes alone, no ids (the remote used to look for objects there)
  assert.deepEqual(JSON.parse(sessionStorage.getItem('atrium.buttonAuthority') || 'null'), [EXPORT_BUTTON, 'dyreport:manage']);
  const downloads: string[] = [];
  await exportViews([{ view, body: { filter: [], goPage: 3 }, panelId: 'p1' }], undefined, { sleep: noSleep, download: (href, name) => downloads.push(`${href} ${name}`) });
  const lookup = h.calls.filter((c) => c.url.includes('find-resource'));
  assert.equal(lookup.length, 1);
  assert.match(lookup[0].url, /menuId=40/);
  const create = h.calls.find((c) => c.url.includes('dataexport/data-export/v2/export/'));
  assert.ok(create, 'the task was created');
  assert.equal(create.body.resourceId, '77');
  assert.equal(create.body.url, 'api/dyreport/chart/view/exportData');
  assert.deepEqual(create.body.params, { viewId: 'v1', panelId: 'p1', requestList: { filter: [] } });
  assert.deepEqual(create.body.columnList, [{ key: 'region', title: 'Region' }, { key: 'amount', title: 'Amount' }]);
  assert.deepEqual(downloads, ['/signed/3 Sales.xlsx']);
  // a second export asks the menu's resources no more
  await exportViews([{ view, body: {}, panelId: 'p1' }], undefined, { sleep: noSleep, download: () => undefined });
  assert.equal(h.calls.filter((c) => c.url.includes('find-resource')).length, 1);
  assert.equal(h.calls.filter((c) => c.url.includes('/export/')).at(-1)?.body.resourceId, '77');
});

test('without the export button on the menu, or outside any menu, no resourceId is sent', async () => {
  reset();
  const h = server();
  permissions.set('41', [{ resourceCode: 'dyreport:manage' }]);
  await permissions.activate('41');
  assert.equal(await resourceIdFor(EXPORT_BUTTON), undefined);
  await exportViews([{ view, body: {}, panelId: 'p1' }], undefined, { sleep: noSleep, download: () => undefined });
  const create = h.calls.find((c) => c.url.includes('/export/'));
  assert.ok(create && !('resourceId' in create.body));
  assert.equal(h.calls.filter((c) => c.url.includes('find-resource')).length, 0);
  await permissions.activate(undefined);
  assert.equal(await resourceIdFor(EXPORT_BUTTON), undefined);
  // super administrators hold every button: the id comes from the menu's list
  permissions.superAdmin = true;
  assert.equal(await resourceIdFor(EXPORT_BUTTON, '40'), '77');
  reset();
});

test('a shared link exports through its own routes with its token and saves the file it fetches', async () => {
  reset();
  const xlsx = new Uint8Array([0x50, 0x4b, 3, 4]);
  const h = server((c) => {
    if (c.url.includes('/api/link/export/download')) {
      return new Response(xlsx, { headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } });
    }
    if (c.url.includes('/api/link/export/result')) {
      return ok({ exportId: 'abc123abc123', status: 2, fileName: 'Sales.xlsx', url: '', downloadUrl: 'dyreport/api/link/export/download?exportId=abc123abc123' });
    }
    if (c.url.includes('/api/link/export')) return ok({ exportId: 'abc123abc123', status: 0 });
    return undefined;
  });
  const saved: { name: string; size: number }[] = [];
  await exportViews(
    [{ view, body: { filter: [], user: 9 }, panelId: 'p1', access: { linkToken: 'tok', user: 9 } }],
    undefined,
    { sleep: noSleep, save: (blob, name) => saved.push({ name, size: blob.size }) },
  );
  const urls = h.calls.map((c) => c.url);
  assert.deepEqual(urls, [
    '/api/dyreport/api/link/export',
    '/api/dyreport/api/link/export/result?exportId=abc123abc123',
    '/api/dyreport/api/link/export/download?exportId=abc123abc123',
  ]);
  for (const c of h.calls) assert.equal(c.headers.linkToken, 'tok');
  assert.ok(!('resourceId' in h.calls[0].body));
  assert.deepEqual(h.calls[0].body.params, { viewId: 'v1', panelId: 'p1', requestList: { filter: [], user: 9 } });
  assert.deepEqual(saved, [{ name: 'Sales.xlsx', size: 4 }]);
});
