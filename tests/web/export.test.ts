import { test } from 'node:test';
import assert from 'node:assert/strict';
import { harness, json } from './helpers';
import { runExportTask, RequestError } from '../../sdk/web/src/index';
import { runDataExport } from '../../web-plugins/transfer/src/exportTask';
import { runViewExport, exportTaskBody } from '../../web-plugins/reports/src/api';

const ok = (data: unknown) => json({ code: 800, msg: 'ok', data });
const noSleep = async () => undefined;

test('SDK flow: create, poll until 2, signed address by name, download', async () => {
  const statuses = [0, 1, 2];
  const h = harness((c) => {
    if (c.url.includes('/export/')) return ok({ exportId: 9 });
    if (c.url.includes('get-export-result')) return ok({ exportId: 9, status: statuses.shift(), fileName: 'S.xlsx', url: '/stored/x', progress: 50 });
    if (c.url.includes('getDownUrlByName')) return ok('/signed/x');
    return ok(null);
  });
  const got: string[] = [];
  const progress: number[] = [];
  const rec = await runExportTask({ url: 'api/x', fileName: 'S', columnList: [{ title: 'A', key: 'a' }], sleep: noSleep,
    download: (href, name) => got.push(`${href} ${name}`), onProgress: (r) => progress.push(r.status) });
  assert.equal(rec.status, 2);
  assert.deepEqual(got, ['/signed/x S.xlsx']);
  assert.deepEqual(progress, [0, 1, 2]);
  const create = h.calls[0];
  assert.equal(create.init.method, 'POST');
  assert.equal(create.body.url, 'api/x');
  assert.equal(create.body.pageIndex, 1);
  assert.equal(create.body.pageRows, 1000);
  assert.equal(create.body.singleSheetMaxRows, 100000);
  assert.equal(create.body.excelType, 'xlsx');
  assert.ok(!('params' in create.body && create.body.params?.params));
  assert.match(h.calls[1].url, /get-export-result\?exportId=9/);
  assert.match(h.calls[4].url, /getDownUrlByName\?fileName=S.xlsx&oldUrl=%2Fstored%2Fx/);
  assert.equal(h.notes.length, 0);
});

test('SDK flow: failed and expired tasks reject and notify; notify:false stays quiet', async () => {
  for (const status of [3, 4, -1]) {
    const h = harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : ok({ status, errorMsg: status === 3 ? 'disk full' : '' })));
    await assert.rejects(runExportTask({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep }), (e: RequestError) => e instanceof RequestError && e.code === 3);
    assert.equal(h.notes.length, 1);
    assert.equal(h.notes[0].type, 'error');
    if (status === 3) assert.equal(h.notes[0].text, 'disk full');
  }
  const h = harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : ok({ status: 3, errorMsg: 'x' })));
  await assert.rejects(runExportTask({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep, notify: false }), /x/);
  assert.equal(h.notes.length, 0);
});

test('SDK flow: a poll that fails shows a warning and stops', async () => {
  const h = harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : json({ code: 805, msg: 'no such task', data: null })));
  await assert.rejects(runExportTask({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep }), /no such task/);
  assert.deepEqual(h.notes.map((n) => n.type), ['warning']);
});

test('SDK flow: timeout and abort', async () => {
  harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : ok({ status: 1 })));
  await assert.rejects(runExportTask({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep, maxPolls: 3 }), (e: RequestError) => e.code === 408 && e.message === 'export timed out');
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(runExportTask({ url: 'u', fileName: 'f', columnList: [], signal: ac.signal }), (e: DOMException) => e.name === 'AbortError');
  const ac2 = new AbortController();
  const p = runExportTask({ url: 'u', fileName: 'f', columnList: [], signal: ac2.signal, intervalMs: 10000 });
  setTimeout(() => ac2.abort(), 20);
  await assert.rejects(p, (e: DOMException) => e.name === 'AbortError');
});

test('transfer: runDataExport is the SDK flow with its texts', async () => {
  const h = harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : ok({ status: 3, errorMsg: '' })));
  await assert.rejects(runDataExport({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep }), /Export failed/);
  assert.deepEqual(h.notes, [{ type: 'error', text: 'Export failed' }]);
  harness((c) => (c.url.includes('/export/') ? ok({ exportId: 1 }) : ok({ status: 1 })));
  await assert.rejects(runDataExport({ url: 'u', fileName: 'f', columnList: [], sleep: noSleep, maxPolls: 1 }), /taking too long/);
});

test('reports: runViewExport through the real client uses the result address, silently', async () => {
  const statuses = [1, 2];
  const h = harness((c) => {
    if (c.url.includes('/export/')) return ok({ exportId: 5 });
    return ok({ status: statuses.shift(), downloadUrl: '/signed/5', url: '/s/5', fileName: '' });
  });
  const got: string[] = [];
  const body = exportTaskBody({ id: 'v', title: 'Sales', name: 's' }, 'p', [{ key: 'a', title: 'A' }], { filter: [] });
  await runViewExport(body, (u, n) => got.push(`${u} ${n}`), { sleep: noSleep });
  assert.deepEqual(got, ['/signed/5 Sales.xlsx']);
  assert.equal(h.calls.length, 3);
  assert.deepEqual(h.calls[0].body.params, { viewId: 'v', panelId: 'p', requestList: { filter: [] } });
  const h2 = harness(() => json({ code: 805, msg: 'denied', data: null }));
  await assert.rejects(runViewExport(body, () => undefined, { sleep: noSleep }), /denied/);
  assert.equal(h2.notes.length, 0);
});
