import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isValidPort, sourceBody, sourceErrors, sourceFormValues, sourceAddress } from '../../../web-plugins/reports/src/designer/data/sourceForm';
import { draftColumns, fieldPatches, fieldsForSave, isExcelFile, suggestedName } from '../../../web-plugins/reports/src/designer/data/datasetForm';
import { formatCell } from '../../../web-plugins/reports/src/designer/data/cells';
import type { DatasetField } from '../../../web-plugins/reports/src/designer/data/types';

const ROOT = path.resolve(process.cwd());

test('a network source needs host, a port from 1 to 65535, database, user and (when new) a password', () => {
  const v = { name: 'Sales', type: 'postgresql' as const, host: 'db', port: 5432, database: 'sales', username: 'bi', password: 'pw' };
  assert.deepEqual(sourceErrors(v, false), {});
  assert.deepEqual(sourceErrors({ ...v, port: 0 }, false), { port: 'port' });
  assert.deepEqual(sourceErrors({ ...v, port: 65536 }, false), { port: 'port' });
  assert.deepEqual(sourceErrors({ ...v, host: ' ', password: '' }, false), { host: 'required', password: 'required' });
  // on edit an empty password keeps the stored one
  assert.deepEqual(sourceErrors({ ...v, password: '' }, true), {});
  assert.equal(isValidPort(3306.5), false);
});

test('a file source needs only its path, and its body carries no network settings', () => {
  const v = { name: 'Local', type: 'sqlite' as const, path: ' /data/a.db ', host: 'left-over', port: 5432, password: 'x' };
  assert.deepEqual(sourceErrors({ ...v, path: '' }, false), { path: 'required' });
  assert.deepEqual(sourceBody(v), { name: 'Local', type: 'sqlite', description: '', queryTimeout: 0, path: '/data/a.db' });
});

test('the save body leaves out an empty password and keeps the id on edit', () => {
  const body = sourceBody({ name: 'S', type: 'mysql', host: 'h', port: 3306, database: 'd', username: 'u', password: '', queryTimeout: 20 }, 'id1');
  assert.equal(body.id, 'id1');
  assert.equal('password' in body, false);
  assert.equal(body.queryTimeout, 20);
});

test('an existing source fills the form without its password', () => {
  const v = sourceFormValues({ id: '1', name: 'PG', type: 'postgresql', host: 'h', port: 6543, database: 'd', username: 'u' });
  assert.equal(v.password, '');
  assert.equal(v.port, 6543);
  assert.equal(sourceFormValues(null).port, 5432);
  assert.equal(sourceAddress({ id: '1', name: 'PG', host: 'h', port: 6543, database: 'd' }), 'h:6543/d');
});

test('a new dataset keeps every detected column, unticked ones as not checked, empty names as the column', () => {
  const cols = draftColumns([
    { originName: 'region', name: 'region', type: 'text', role: 'dimension' },
    { originName: 'amount', name: 'amount', type: 'float', role: 'quota' },
  ]);
  cols[0] = { ...cols[0], name: '  ' };
  cols[1] = { ...cols[1], checked: false, name: 'Amount' };
  assert.deepEqual(fieldsForSave(cols), [
    { originName: 'region', name: 'region', type: 'text', role: 'dimension', checked: true },
    { originName: 'amount', name: 'Amount', type: 'float', role: 'quota', checked: false },
  ]);
});

test('field edits send only what changed', () => {
  const f = (id: string, o: Partial<DatasetField> = {}): DatasetField => ({ id, name: id, dataeaseName: id, originName: id, type: 'text', role: 'dimension', checked: true, ...o });
  const stored = [f('a'), f('b'), f('c')];
  const edited = [f('a'), f('b', { name: 'Bee', role: 'quota' }), f('c', { checked: false })];
  assert.deepEqual(fieldPatches(stored, edited), [{ id: 'b', name: 'Bee', role: 'quota' }, { id: 'c', checked: false }]);
  assert.deepEqual(fieldPatches(stored, stored), []);
});

test('only xls and xlsx uploads are taken; names come from the file or table', () => {
  assert.equal(isExcelFile('sales.XLSX'), true);
  assert.equal(isExcelFile('sales.xls'), true);
  assert.equal(isExcelFile('sales.csv'), false);
  assert.equal(isExcelFile('sales.xlsx.zip'), false);
  assert.equal(suggestedName('C:\\tmp\\Q1 sales.xlsx'), 'Q1 sales');
});

test('preview cells show numbers with separators and empty values as a dash', () => {
  assert.equal(formatCell(1234567, 'integer', 'en-us'), '1,234,567');
  assert.equal(formatCell(null, 'text', 'en-us'), '-');
  assert.equal(formatCell('12345', 'text', 'en-us'), '12345');
  assert.equal(formatCell('2026-11-26 12:38:00.000000', 'time', 'en-us'), '2026-11-26 12:38:00');
  assert.equal(formatCell('2026-11-26 12:38:00.250000', 'time', 'en-us'), '2026-11-26 12:38:00.250000');
});

/** Keys the screens build at run time, by their prefix, and the values they take. */
const DYNAMIC: Record<string, string[]> = {
  'source.types': ['sqlite', 'duckdb', 'postgresql', 'mysql'],
  'source.error': ['required', 'port', 'timeout'],
  'field.types': ['text', 'time', 'integer', 'float'],
  'field.roles': ['dimension', 'quota'],
  'dataset.kinds': ['table', 'sql', 'excel'],
  'dataset.modes': ['direct', 'extract'],
  'dataset.modeHint': ['direct', 'extract'],
  'sync.statuses': ['never', 'running', 'ok', 'error'],
};

function keys(node: unknown, prefix = ''): string[] {
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => keys(v, `${prefix}${k}.`));
  return [prefix.slice(0, -1)];
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

test('every locale of reportsData has the same keys, all translated, and every key the screens use', () => {
  const locales = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'];
  const bundles = Object.fromEntries(locales.map((l) => [l, JSON.parse(readFileSync(path.join(ROOT, 'i18n', l, 'reportsData.json'), 'utf-8'))]));
  const expected = keys(bundles['en-us']).sort();
  for (const l of locales) assert.deepEqual(keys(bundles[l]).sort(), expected, l);
  // real translations: the Chinese and Hungarian titles differ from the English ones
  assert.notEqual(bundles['zh-cn'].view.newTitle, bundles['en-us'].view.newTitle);
  assert.notEqual(bundles['hu-hu'].dataset.title, bundles['en-us'].dataset.title);
  const used = new Set<string>();
  for (const file of sources(path.join(ROOT, 'web-plugins/reports/src/designer'))) {
    if (file.includes(`${path.sep}panel${path.sep}`)) continue;
    for (const m of readFileSync(file, 'utf-8').matchAll(/\bt\('([a-zA-Z][\w.]*)'/g)) used.add(m[1]);
  }
  for (const [prefix, values] of Object.entries(DYNAMIC)) for (const v of values) used.add(`${prefix}.${v}`);
  const have = new Set(expected);
  assert.ok(used.size > 100);
  assert.deepEqual([...used].filter((k) => !have.has(k)), []);
});
