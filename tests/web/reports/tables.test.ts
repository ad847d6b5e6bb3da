import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellColor, cellText, flatTable, leafColumns, nextSort, pageCount, pagerPages, pivotTable, sortRows, tableLook, tablePageSize,
} from '../../../web-plugins/reports/src/charts/tables';
import { viewStyles } from '../../../web-plugins/reports/src/charts/common';
import { FIELD, REGIONS, TWO, grouped } from './fixtures';

test('sort cycles ascending, descending, none', () => {
  assert.equal(nextSort(undefined), 'asc');
  assert.equal(nextSort('none'), 'asc');
  assert.equal(nextSort('asc'), 'desc');
  assert.equal(nextSort('desc'), 'none');
});

test('rows sort numerically or by text; none keeps the order', () => {
  const rows = [{ a: 10, b: 'x2' }, { a: 2, b: 'x10' }, { a: null, b: 'x1' }];
  assert.deepEqual(sortRows(rows, 'a', 'asc').map((r) => r.a), [2, 10, null]);
  assert.deepEqual(sortRows(rows, 'a', 'desc').map((r) => r.a), [10, 2, null]);
  assert.deepEqual(sortRows(rows, 'b', 'asc').map((r) => r.b), ['x1', 'x2', 'x10']);
  assert.equal(sortRows(rows, 'a', 'none'), rows);
});

test('the pager shows at most 5 pages around the current one', () => {
  assert.deepEqual(pagerPages(1, 20), [1, 2, 3, 4, 5]);
  assert.deepEqual(pagerPages(10, 20), [8, 9, 10, 11, 12]);
  assert.deepEqual(pagerPages(20, 20), [16, 17, 18, 19, 20]);
  assert.deepEqual(pagerPages(2, 3), [1, 2, 3]);
  assert.equal(pageCount(20001, 20), 1001);
  assert.equal(pageCount(0, 20), 1);
});

test('page size 20 by default, or the size setting; row height 36', () => {
  assert.equal(tablePageSize({}), 20);
  assert.equal(tablePageSize({}, 50), 50);
  assert.equal(tablePageSize({ size: { tablePageSize: 10 } }, 50), 10);
  const look = tableLook(viewStyles({ customAttr: {} }));
  assert.equal(look.rowHeight, 36);
  const panel = tableLook(viewStyles({ customAttr: {} }, { customAttr: { tableColor: { tableHeaderBgColor: '#123456' } } }));
  assert.equal(panel.headerBg, '#123456');
});

test('table-normal: a column per field, numbers formatted', () => {
  const m = flatTable(TWO);
  assert.deepEqual(m.columns.map((c) => c.title), ['Region', 'Amount', 'Profit']);
  assert.equal(m.rows.length, 4);
  assert.equal(m.columns[1].numeric, true);
  // a column of whole numbers shows whole numbers, with separators
  assert.deepEqual(m.rows.map((r) => cellText(r[m.columns[1].key], m.columns[1])), ['40', '30', '20', '10']);
  assert.equal(cellText(1234, m.columns[1]), '1,234');
  assert.equal(cellText('East', m.columns[0]), 'East');
  // a timestamp stored as text reads to the second, never with its microseconds
  assert.equal(cellText('2026-11-28 12:38:00.000000', m.columns[0]), '2026-11-28 12:38:00');
  assert.equal(cellText('2026-11-28T12:38:05.5', m.columns[0]), '2026-11-28 12:38:05');
  assert.equal(cellColor(50, m.columns[1], { ruleList: [{ type: 'ge', values: [40], color: 'red' }] }), 'red');
  assert.equal(cellColor('East', m.columns[0], { ruleList: [{ type: 'ge', values: [40], color: 'red' }] }), undefined);
});

test('table-normal: one number of decimals per column, that of its most precise value, or the field\'s own', () => {
  const data = grouped(REGIONS, [
    { name: 'Amount', id: FIELD.amount, values: [1234.5, 30, 20, 10] },
    { name: 'Profit', id: FIELD.profit, values: [4, 3.25, 2, 1] },
  ]);
  const shown = (m: ReturnType<typeof flatTable>, i: number) => m.rows.map((r) => cellText(r[m.columns[i].key], m.columns[i]));
  const m = flatTable(data);
  assert.deepEqual(shown(m, 1), ['1,234.5', '30.0', '20.0', '10.0']);
  assert.deepEqual(shown(m, 2), ['4.00', '3.25', '2.00', '1.00']);
  // the field's own format wins
  const own = flatTable({ ...data, fields: data.fields.map((f, i) => (i === 1 ? { ...f, valueFormat: { formatType: 'number', decimalNumber: 0 } } : f)) } as any);
  assert.deepEqual(shown(own, 1), ['1,235', '30', '20', '10']);
});

test('table-info: the total is the server\'s row count', () => {
  const m = flatTable({ ...TWO, resultTotal: 20000 });
  assert.equal(m.total, 20000);
});

test('table-pivot: row keys down, a group per column path, totals', () => {
  const data: any = {
    x: [], series: [], datas: [], tableRow: [],
    fields: [
      { id: 'r', name: 'Region', key: 'region', axis: 'xaxis' },
      { id: 'c', name: 'Channel', key: 'channel', axis: 'xaxisExt' },
      { id: 'q', name: 'Amount', key: 'amount', axis: 'yaxis', summary: 'sum' },
    ],
    pivot: {
      rowFields: ['region'], columnFields: ['channel'], quotaFields: ['amount'],
      columns: [
        { path: ['Online'], quota: 'amount', name: 'Amount', key: 'Online|amount' },
        { path: ['Store'], quota: 'amount', name: 'Amount', key: 'Store|amount' },
      ],
      rows: [
        { rowKeys: ['East'], values: { 'Online|amount': 1, 'Store|amount': 2 }, total: { amount: 3 } },
        { rowKeys: ['West'], values: { 'Online|amount': 4 }, total: { amount: 4 } },
      ],
      columnTotals: { 'Online|amount': 5, 'Store|amount': 2 },
      grandTotal: { amount: 7 },
    },
  };
  const m = pivotTable(data, 'Total');
  assert.deepEqual(m.columns.map((c) => c.title), ['Region', 'Online', 'Store', 'Total Amount']);
  assert.deepEqual(leafColumns(m.columns).map((c) => c.key), ['r:region', 'v:Online|amount', 'v:Store|amount', 't:amount']);
  assert.equal(m.rows.length, 3);
  assert.deepEqual(m.rows[0], { 'r:region': 'East', 'v:Online|amount': 1, 'v:Store|amount': 2, 't:amount': 3 });
  assert.equal(m.rows[2]['r:region'], 'Total');
  assert.equal(m.rows[2]['t:amount'], 7);
});
