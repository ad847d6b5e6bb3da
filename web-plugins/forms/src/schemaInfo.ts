/**
 * What the pages read from a form's JSON Schema without rendering it (the field kinds, choice labels,
 * visibility, help): kept apart from the renderer so the list and the designer do not load it.
 */
import { fieldLabel, type Json } from './api';

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
