/** A form's uiSchema, derived from its JSON Schema's own hints (`x-kind`, `x-i18n`, `x-enumNames`, `x-help`) in
 * the current language: which widget draws each field, its label, its help text and its choices' labels. */
import type { UiSchema } from '@rjsf/utils';
import { fieldLabel, type Json } from '../api';
import { enumNames, helpText, kindOf } from '../schemaInfo';

const WIDGETS: Record<string, string> = {
  textarea: 'textarea',
  number: 'number',
  radio: 'radio',
  date: 'date',
  daterange: 'daterange',
  file: 'upload',
  image: 'upload',
};

function fieldUi(prop: Json, key: string, locale: string): UiSchema {
  const kind = kindOf(prop);
  const ui: UiSchema = { 'ui:title': fieldLabel(prop, key, locale) };
  const help = helpText(prop, locale);
  if (help) ui['ui:description'] = help;
  const names = enumNames(prop, locale);
  if (names.length) {
    ui['ui:enumNames'] = names;
    if (prop.type === 'array') ui.items = { 'ui:enumNames': names };
  }
  if (WIDGETS[kind]) ui['ui:widget'] = WIDGETS[kind];
  if (kind === 'textarea') ui['ui:options'] = { rows: 3 };
  if (kind === 'file' || kind === 'image') ui['ui:options'] = { image: kind === 'image' };
  if (kind === 'checkbox') {
    if (prop.type === 'array') ui['ui:widget'] = 'checkboxes';
    else ui['ui:label'] = false;
  }
  if (kind === 'user' || kind === 'member') ui['ui:field'] = 'person';
  if (kind === 'section' || kind === 'divider') ui['ui:field'] = 'layout';
  if (kind === 'table') {
    const cells: UiSchema = {};
    for (const [col, p] of Object.entries<Json>(prop.items?.properties || {})) cells[col] = fieldUi(p, col, locale);
    ui.items = cells;
  }
  return ui;
}

export function uiSchemaFor(schema: Json, locale: string): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const [key, prop] of Object.entries<Json>(schema.properties || {})) ui[key] = fieldUi(prop, key, locale);
  return ui;
}
