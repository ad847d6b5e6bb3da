/**
 * What the pages read from a form's JSON Schema without rendering it (the field kinds, choice labels,
 * visibility, help): kept apart from the renderer so the list and the designer do not load it.
 */
import { fieldLabel, type Dictionaries, type Json } from './api';

/** Kinds that only lay the form out (a heading, a line) and carry no data. */
export const NO_DATA = new Set(['section', 'divider']);

/** Kinds drawn across the whole width whatever the layout's columns. */
export const FULL_WIDTH = new Set(['section', 'divider', 'table', 'textarea']);

export function kindOf(prop: Json): string {
  if (prop['x-kind']) return prop['x-kind'];
  if (prop.type === 'number' || prop.type === 'integer') return 'number';
  if (prop.type === 'boolean') return 'checkbox';
  if (prop.format === 'date') return 'date';
  if (prop.enum) return 'select';
  return 'text';
}

/** A choice field's options, labelled in the locale (`x-enumNames`), else by their values. */
export function options(prop: Json, locale: string): { value: any; label: string }[] {
  const values: any[] = prop.enum || prop.items?.enum || [];
  return values.map((v, i) => ({ value: v, label: String(enumNames(prop, locale)[i] ?? v) }));
}

export function enumNames(prop: Json, locale: string): string[] {
  const names = prop['x-enumNames'] || {};
  return names[locale] || names['zh-cn'] || names['en-us'] || [];
}

/** Whether a field is shown for these values (`x-visibleIf`: another field equals, or contains, a value). */
export function visible(prop: Json, values: Json | undefined): boolean {
  const rule = prop['x-visibleIf'];
  if (!rule || !rule.field) return true;
  const other = values?.[rule.field];
  return Array.isArray(other) ? other.includes(rule.value) : other === rule.value;
}

/** A field's help text in the locale (`x-help`, else `description`). */
export function helpText(prop: Json, locale: string): string {
  return (prop['x-help'] || {})[locale] || prop.description || '';
}

/** The label of a top-level field, as the server names it in its messages. */
export function labelOf(schema: Json, key: string, locale: string): string {
  return fieldLabel(schema.properties?.[key], key, locale);
}

/** Kinds whose choices may come from a dictionary (`x-dict`). */
const DICT_KINDS = new Set(['select', 'radio']);

/**
 * The schema with each dictionary field's items as its choices: `enum` their codes, `x-enumNames` their names
 * in the locale, so rjsf draws them and the browser checks a value is one of them (the server checks the
 * same against the dictionary). Answers the schema itself when it has no dictionary field.
 */
export function withDictionaries(schema: Json, dictionaries: Dictionaries | undefined, locale: string): Json {
  const props: Record<string, Json> = schema?.properties || {};
  if (!Object.values(props).some((p) => p?.['x-dict'])) return schema;
  const properties: Record<string, Json> = {};
  for (const [key, prop] of Object.entries(props)) {
    const type = prop?.['x-dict'];
    if (!type || !DICT_KINDS.has(kindOf(prop))) {
      properties[key] = prop;
      continue;
    }
    const items = dictionaries?.[type] || [];
    properties[key] = { ...prop, enum: items.map((i) => i.value), 'x-enumNames': { [locale]: items.map((i) => i.label) } };
  }
  return { ...schema, properties };
}
