import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(process.cwd());
const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'];

function keys(node: unknown, prefix = ''): string[] {
  if (node && typeof node === 'object') return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keys(v, `${prefix}${k}.`));
  return [prefix.slice(0, -1)];
}

const bundle = (loc: string) => JSON.parse(readFileSync(path.join(ROOT, 'i18n', loc, 'reportsDesigner.json'), 'utf-8'));

test('every locale of the designer has every key, none empty, with the same placeholders', () => {
  const reference = bundle('en-us');
  const ref = keys(reference).sort();
  assert.ok(ref.length > 100);
  const flat = (b: unknown) => Object.fromEntries(keys(b).map((k) => [k, k.split('.').reduce((n: any, p) => n[p], b)]));
  const en = flat(reference);
  for (const loc of LOCALES) {
    const b = flat(bundle(loc));
    assert.deepEqual(Object.keys(b).sort(), ref, loc);
    for (const [k, v] of Object.entries(b)) {
      assert.ok(typeof v === 'string' && v.trim(), `${loc} ${k}`);
      const ph = (s: string) => (s.match(/\{\{\w+\}\}/g) || []).sort().join();
      assert.equal(ph(v as string), ph(en[k] as string), `${loc} ${k} placeholders`);
    }
  }
});

test('every literal key the designer asks for exists', () => {
  const dir = path.join(ROOT, 'web-plugins', 'reports', 'src', 'designer', 'panel');
  const files = readdirSync(dir).filter((f) => f.endsWith('.tsx')).map((f) => path.join(dir, f));
  const sources = [...files, path.join(ROOT, 'web-plugins', 'reports', 'src', 'pages', 'ReportsHome.tsx')].map((f) => readFileSync(f, 'utf-8'));
  const known = new Set(keys(bundle('en-us')));
  const used = new Set<string>();
  for (const src of sources) {
    for (const m of src.matchAll(/\b(?:t|dt)\(\s*'([a-zA-Z_.-]+)'/g)) used.add(m[1]);
    for (const m of src.matchAll(/\?\s*'([a-z]+\.[a-zA-Z_.]+)'\s*:\s*'([a-z]+\.[a-zA-Z_.]+)'/g)) used.add(m[1]).add(m[2]);
  }
  // ReportsHome also reads the viewer's own namespace
  const viewerKeys = ['panels', 'filter.search', 'noPanels', 'choosePanel', 'panel.notFound'];
  const missing = [...used].filter((k) => !known.has(k) && !viewerKeys.includes(k));
  assert.ok(used.size > 100, String(used.size));
  assert.deepEqual(missing, []);
});
