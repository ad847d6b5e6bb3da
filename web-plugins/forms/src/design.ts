/**
 * The designer's model: a form is a list of field drafts, and the designer's output is the JSON Schema built
 * from them (`buildSchema`), read back by `fromSchema`. Kept apart from the designer's page so the web unit
 * tests build a schema exactly as the designer does (tests/web/forms_design.test.ts).
 */
import type { Json } from './api';

export const KINDS = ['text', 'textarea', 'number', 'select', 'radio', 'checkbox', 'date', 'daterange', 'user', 'member', 'file', 'image', 'table', 'section', 'divider'] as const;

/** The platform's languages: a field's label and a form's name are set for each. */
export const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'] as const;

/** A form's layouts (`layout_code`): L1 takes the columns the author sets, L2 and L3 two and three. */
export const LAYOUT_CODES = ['L1', 'L2', 'L3'] as const;
export type LayoutCode = (typeof LAYOUT_CODES)[number];

/** The layouts a form is saved with, L1 in `columns` columns (1 to 4). */
export function layoutsOf(columns: number): Record<LayoutCode, { columns: number }> {
  return { L1: { columns: Math.max(1, Math.min(4, columns || 1)) }, L2: { columns: 2 }, L3: { columns: 3 } };
}

/** Kinds whose choices may come from a dictionary type of the platform (`x-dict`). */
export const DICT_KINDS = new Set(['select', 'radio']);

/** Kinds that take a default value. */
export const DEFAULT_KINDS = new Set(['text', 'textarea', 'number', 'select', 'radio', 'checkbox', 'date']);

/** A field's settings in the designer, each shown only for the kinds that have it. */
export type Setting = 'label' | 'required' | 'help' | 'visible' | 'range' | 'length' | 'pattern' | 'default' | 'options' | 'columns' | 'dict';

const DATA: Setting[] = ['label', 'required', 'help', 'visible'];
const TEXT: Setting[] = [...DATA, 'length', 'pattern', 'default'];
const CHOICE: Setting[] = [...DATA, 'options', 'dict', 'default'];

/** The settings of each kind: a number has a range, a text a length and a pattern, a choice its options, a
 * sub-table its columns; a section only its heading, a divider nothing but when it shows. */
export const KIND_SETTINGS: Record<string, ReadonlySet<Setting>> = {
  text: new Set(TEXT),
  textarea: new Set(TEXT),
  number: new Set([...DATA, 'range', 'default']),
  select: new Set(CHOICE),
  radio: new Set(CHOICE),
  checkbox: new Set([...DATA, 'options', 'default']),
  date: new Set([...DATA, 'default']),
  daterange: new Set(DATA),
  user: new Set(DATA),
  member: new Set(DATA),
  file: new Set(DATA),
  image: new Set(DATA),
  table: new Set([...DATA, 'columns']),
  section: new Set(['label', 'visible']),
  divider: new Set(['visible']),
};

/** Whether a field of a kind has a setting in the designer. */
export function hasSetting(kind: string, setting: Setting): boolean {
  return (KIND_SETTINGS[kind] ?? KIND_SETTINGS.text).has(setting);
}

export interface FieldDraft {
  key: string;
  kind: string;
  /** the label in the platform's first language (zh-cn), also shown in a language without a label of its own
   * (the schema's `title`) */
  label: string;
  /** the label in the other languages (`x-i18n`); empty ones are left out */
  labels: Record<string, string>;
  required: boolean;
  help: string;
  /** choices (or a sub-table's columns), one by one as the designer lists them */
  options: string[];
  /** a dictionary type whose items are the choices of a select or radio (instead of `options`) */
  dict: string;
  /** the default value: as typed (a text, a number, a date), a choice, `true`/`false` for a single checkbox, or
   * the choices of a checkbox group */
  defaultValue: string | string[];
  min?: number | null;
  max?: number | null;
  pattern: string;
  visibleField: string;
  visibleValue: string;
}

/** A new field of a kind, named `<kind><n>`. */
export function newField(kind: string, n: number, label: string): FieldDraft {
  return { key: `${kind}${n}`, kind, label, labels: {}, required: false, help: '', options: [], dict: '', defaultValue: '', pattern: '', visibleField: '', visibleValue: '' };
}

/** Options as the schema takes them: trimmed, without empty or repeated ones (a text is read as a comma
 * separated list, as drafts kept before the options were a list). */
export function optionValues(options: readonly string[] | string | undefined): string[] {
  const items = typeof options === 'string' ? options.split(',') : options || [];
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}

/** The typed default as the field's value, or undefined when there is none (or it does not fit the kind). */
export function defaultOf(f: FieldDraft): unknown {
  const chosen = f.defaultValue;
  const text = Array.isArray(chosen) ? chosen.join(',') : (chosen || '').trim();
  if (!text || !DEFAULT_KINDS.has(f.kind)) return undefined;
  if (f.kind === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : undefined;
  }
  if (f.kind === 'checkbox') {
    if (optionValues(f.options).length) return optionValues(chosen);
    if (/^(true|1|yes|on)$/i.test(text)) return true;
    if (/^(false|0|no|off)$/i.test(text)) return false;
    return undefined;
  }
  return text;
}

/** One designer field to its JSON Schema property. */
export function fieldSchema(f: FieldDraft): Json {
  const labels = Object.fromEntries(Object.entries(f.labels || {}).map(([k, v]) => [k, (v || '').trim()]).filter(([, v]) => v));
  const base: Json = { title: f.label || f.key, 'x-kind': f.kind, 'x-i18n': labels };
  if (f.help) base.description = f.help;
  if (f.visibleField) base['x-visibleIf'] = { field: f.visibleField, value: f.visibleValue };
  const opts = optionValues(f.options);
  const range = (p: Json, lo: string, hi: string) => {
    if (f.min !== undefined && f.min !== null) p[lo] = f.min;
    if (f.max !== undefined && f.max !== null) p[hi] = f.max;
    return p;
  };
  const withDefault = (p: Json) => {
    const value = defaultOf(f);
    if (value !== undefined) p.default = value;
    return p;
  };
  switch (f.kind) {
    case 'number': return withDefault(range({ ...base, type: 'number' }, 'minimum', 'maximum'));
    case 'select': case 'radio':
      if (f.dict) return withDefault({ ...base, type: 'string', 'x-dict': f.dict });
      return withDefault({ ...base, type: 'string', enum: opts.length ? opts : ['A', 'B'] });
    case 'checkbox': return withDefault(opts.length ? { ...base, type: 'array', items: { type: 'string', enum: opts }, uniqueItems: true } : { ...base, type: 'boolean' });
    case 'date': return withDefault({ ...base, type: 'string', format: 'date' });
    case 'daterange': return { ...base, type: 'array', items: { type: 'string', format: 'date' }, minItems: 2, maxItems: 2 };
    case 'user': case 'member': return { ...base, type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    case 'file': case 'image': return { ...base, type: 'array', items: { type: 'object' }, maxItems: f.kind === 'image' ? 5 : 20 };
    case 'table': return { ...base, type: 'array', maxItems: 10000, items: { type: 'object', properties: Object.fromEntries((opts.length ? opts : ['item']).map((c) => [c, { type: 'string', title: c }])) } };
    case 'section': case 'divider': return { ...base, type: 'null' };
    default: {
      const p: Json = range({ ...base, type: 'string' }, 'minLength', 'maxLength');
      if (f.pattern) p.pattern = f.pattern;
      return withDefault(p);
    }
  }
}

/** The designer's fields to the form's JSON Schema (required-when-visible as allOf if/then). */
export function buildSchema(fields: FieldDraft[]): Json {
  const properties: Json = {};
  const required: string[] = [];
  const allOf: Json[] = [];
  for (const f of fields) {
    properties[f.key] = fieldSchema(f);
    if (!f.required || ['section', 'divider'].includes(f.kind)) continue;
    if (f.visibleField) allOf.push({ if: { properties: { [f.visibleField]: { const: f.visibleValue } }, required: [f.visibleField] }, then: { required: [f.key] } });
    else required.push(f.key);
  }
  return { type: 'object', properties, required, ...(allOf.length ? { allOf } : {}) };
}

function defaultText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** A saved schema back to the designer's fields. */
export function fromSchema(schema: Json): FieldDraft[] {
  const req = new Set<string>(schema.required || []);
  for (const rule of schema.allOf || []) for (const key of rule?.then?.required || []) req.add(key);
  return Object.entries<Json>(schema.properties || {}).map(([key, p]) => {
    const tableColumns = p['x-kind'] === 'table' ? Object.keys(p.items?.properties || {}) : null;
    return {
      key,
      kind: p['x-kind'] || 'text',
      label: p.title || key,
      labels: { ...(p['x-i18n'] || {}) },
      required: req.has(key),
      help: p.description || '',
      options: (tableColumns || p.enum || p.items?.enum || []).map(String),
      dict: p['x-dict'] || '',
      defaultValue: Array.isArray(p.default) ? p.default.map(String) : defaultText(p.default),
      min: p.minimum ?? p.minLength,
      max: p.maximum ?? p.maxLength,
      pattern: p.pattern || '',
      visibleField: p['x-visibleIf']?.field || '',
      visibleValue: p['x-visibleIf']?.value ?? '',
    };
  });
}

/** A form's names per locale, empty ones left out; the first language's name falls back to the code. */
export function formNames(names: Record<string, string>, code: string): Record<string, string> {
  const out = Object.fromEntries(Object.entries(names).map(([k, v]) => [k, (v || '').trim()]).filter(([, v]) => v));
  if (!out['zh-cn'] && !Object.keys(out).length) out['zh-cn'] = code;
  return out;
}
