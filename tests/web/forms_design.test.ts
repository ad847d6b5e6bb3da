/**
 * The form designer's output, built as the designer builds it (web-plugins/forms/src/design.ts): a form with
 * every field kind is a valid draft 2020-12 JSON Schema (the draft the server checks with), the browser's
 * validator passes a good submission and names the fields of a bad one, and the designer reads its own output
 * back. The schema and both submissions are kept in tests/forms/designer_every_kind.json, which the server's
 * test (tests/forms/test_forms_roundtrip.py) saves, publishes and submits: the same schema on both sides.
 * `UPDATE_FIXTURES=1 npm test` writes the file again after a deliberate change of the designer's output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { buildSchema, defaultOf, type FieldDraft, formNames, fromSchema, KINDS, LOCALES, newField, optionValues } from '../../web-plugins/forms/src/design';
import { withDictionaries } from '../../web-plugins/forms/src/schemaInfo';
import { formValidator } from '../../web-plugins/forms/src/validator';

const FIXTURE = path.resolve(process.cwd(), 'tests/forms/designer_every_kind.json');
export const DICT_TYPE = 'FORMS_ROUNDTRIP';

/** One field of every kind, set up as an administrator would in the designer. */
function designed(): FieldDraft[] {
  const fields = KINDS.map((kind, i) => newField(kind, i + 1, `${kind} label`));
  const by = (kind: string) => fields.find((f) => f.kind === kind)!;
  Object.assign(by('text'), {
    required: true, min: 2, max: 20, pattern: '^[A-Z]', defaultValue: 'Trip', help: 'What the trip is for',
    labels: { 'zh-cn': '标题', 'zh-tw': '標題', 'en-us': 'Title', 'vi-vn': 'Tiêu đề', 'hu-hu': 'Cím' },
  });
  Object.assign(by('textarea'), { max: 200, required: true, visibleField: 'select4', visibleValue: 'b' });
  Object.assign(by('number'), { required: true, min: 1, max: 100, defaultValue: '5', labels: { 'en-us': 'Nights' } });
  Object.assign(by('select'), { options: ['a', ' b', 'c '], defaultValue: 'a' });
  Object.assign(by('radio'), { dict: DICT_TYPE, required: true, labels: { 'en-us': 'Level' } });
  Object.assign(by('checkbox'), { options: ['red', 'blue'], defaultValue: ['red'] });
  Object.assign(by('date'), { defaultValue: '2026-01-01' });
  Object.assign(by('user'), { required: true, labels: { 'en-us': 'Owner' } });
  Object.assign(by('table'), { options: ['item', 'qty'] });
  return fields;
}

interface Fixture {
  schema: Record<string, any>;
  good: Record<string, any>;
  bad: Record<string, any>;
  badFields: string[];
}

const GOOD = {
  text1: 'Trip',
  number3: 5,
  select4: 'a',
  radio5: 'gold',
  checkbox6: ['red'],
  date7: '2026-01-01',
  daterange8: ['2026-01-01', '2026-01-03'],
  user9: { id: 0, name: 'the test fills in a member' },
  member10: { id: 0, name: 'the test fills in a member' },
  file11: [{ fileId: '1', name: 'plan.pdf', size: 1000 }],
  image12: [{ fileId: '2', name: 'map.png', size: 1000 }],
  table13: [{ item: 'pens', qty: '2' }],
};

// too short, over the range, a choice that is not one, a one-day range, the text area required once select4
// is 'b', and the required radio and user missing
const BAD = { text1: 'x', number3: 500, select4: 'b', checkbox6: ['green'], daterange8: ['2026-01-01'] };
const BAD_FIELDS = ['checkbox6', 'daterange8', 'number3', 'radio5', 'text1', 'textarea2', 'user9'];

function fieldsOf(errors: { property?: string; name?: string; params?: any }[]): string[] {
  const out = new Set<string>();
  for (const e of errors) {
    const parts = (e.property || '').replace(/^\./, '').split('.').filter(Boolean);
    out.add(e.name === 'required' && !parts.length ? String(e.params?.missingProperty) : parts[0]);
  }
  return [...out].sort();
}

test('a form with every field kind is a valid draft 2020-12 JSON Schema, as kept for the server', () => {
  const schema = buildSchema(designed());
  const ajv = new Ajv2020({ strict: false });
  assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
  assert.deepEqual(Object.keys(schema.properties).map((k) => schema.properties[k]['x-kind']), [...KINDS]);
  assert.deepEqual(schema.required, ['text1', 'number3', 'radio5', 'user9']);
  assert.deepEqual(schema.allOf, [{ if: { properties: { select4: { const: 'b' } }, required: ['select4'] }, then: { required: ['textarea2'] } }]);
  const p = schema.properties;
  assert.deepEqual(p.text1['x-i18n'], { 'zh-cn': '标题', 'zh-tw': '標題', 'en-us': 'Title', 'vi-vn': 'Tiêu đề', 'hu-hu': 'Cím' });
  assert.equal(p.text1.default, 'Trip');
  assert.equal(p.number3.default, 5);
  assert.deepEqual(p.checkbox6.default, ['red']);
  assert.deepEqual(p.select4.enum, ['a', 'b', 'c']);
  assert.equal(p.radio5['x-dict'], DICT_TYPE);
  assert.equal(p.radio5.enum, undefined, 'a dictionary field takes its choices from the dictionary');
  assert.deepEqual(p.user9.required, ['id']);
  const fixture: Fixture = { schema, good: GOOD, bad: BAD, badFields: BAD_FIELDS };
  if (process.env.UPDATE_FIXTURES) writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  const kept = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
  assert.deepEqual(kept, fixture, 'the designer output changed: update tests/forms/designer_every_kind.json (UPDATE_FIXTURES=1)');
});

test('the browser validator passes the good submission and names every field of the bad one', () => {
  const schema = buildSchema(designed());
  const items = { [DICT_TYPE]: [{ value: 'gold', label: 'Gold' }, { value: 'silver', label: 'Silver' }] };
  const drawn = withDictionaries(schema, items, 'en-us');
  assert.deepEqual(drawn.properties.radio5.enum, ['gold', 'silver']);
  assert.deepEqual(drawn.properties.radio5['x-enumNames'], { 'en-us': ['Gold', 'Silver'] });
  assert.equal(withDictionaries(GOOD, items, 'en-us'), GOOD, 'a schema without dictionary fields is kept as it is');
  const v = formValidator(drawn as any);
  assert.deepEqual(v.validateFormData(GOOD, drawn as any).errors, []);
  assert.deepEqual(fieldsOf(v.validateFormData(BAD, drawn as any).errors), BAD_FIELDS);
  const notInDictionary = v.validateFormData({ ...GOOD, radio5: 'bronze' }, drawn as any).errors;
  assert.deepEqual(fieldsOf(notInDictionary), ['radio5']);
  assert.equal(notInDictionary[0].name, 'enum');
});

test('the designer reads back what it wrote', () => {
  const fields = designed();
  const again = fromSchema(buildSchema(fields));
  const plain = (f: FieldDraft) => ({ ...f, options: optionValues(f.options), min: f.min ?? undefined, max: f.max ?? undefined });
  assert.deepEqual(again.map(plain), fields.map(plain));
});

test('a default is typed by the kind and left out when it does not fit', () => {
  const f = (kind: string, defaultValue: string | string[], options: string[] = []) => ({ ...newField(kind, 1, kind), defaultValue, options });
  assert.equal(defaultOf(f('number', '2.5')), 2.5);
  assert.equal(defaultOf(f('number', 'many')), undefined);
  assert.equal(defaultOf(f('checkbox', 'yes')), true);
  assert.equal(defaultOf(f('checkbox', 'off')), false);
  assert.deepEqual(defaultOf(f('checkbox', ['a', 'b'], ['a', 'b', 'c'])), ['a', 'b']);
  assert.deepEqual(defaultOf(f('checkbox', ['x, y'], ['x, y', 'z'])), ['x, y'], 'a choice may hold a comma');
  assert.equal(defaultOf(f('user', '3')), undefined, 'people, files and tables take no default');
  assert.equal(buildSchema([f('text', '  ')]).properties.text1.default, undefined);
});

test('a form is named in every language filled in, and by its code when none is', () => {
  assert.deepEqual(formNames({ 'zh-cn': ' 出差 ', 'en-us': 'Trip', 'vi-vn': '' }, 'trip'), { 'zh-cn': '出差', 'en-us': 'Trip' });
  assert.deepEqual(formNames({}, 'trip'), { 'zh-cn': 'trip' });
  assert.equal(LOCALES.length, 5);
});
