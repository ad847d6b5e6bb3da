/**
 * Validation errors as the server words them: the same `v.*` messages of the forms namespace, naming the
 * field by its label in the current language (a sub-table cell as `Label (row / column)`), the first error
 * of each field only, none for fields hidden by their visibility rule.
 */
import type { RJSFValidationError } from '@rjsf/utils';
import type { Json } from '../api';
import { labelOf, NO_DATA, kindOf, visible } from '../schemaInfo';

/** The keywords with a message of their own (the server's list); any other failure is "invalid". */
const WORDED = new Set([
  'required', 'type', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'pattern', 'enum', 'const', 'format', 'minItems', 'maxItems', 'uniqueItems',
]);

type T = (key: string, options?: Record<string, unknown>) => string;

/** A failed keyword's message: a number field holding anything else is "not a number" (`v.number`, or
 * `v.integer` for a whole number), as the server says. */
function messageKey(kind: string, limit: unknown): string {
  if (kind === 'type' && (limit === 'number' || limit === 'integer')) return `v.${limit}`;
  return WORDED.has(kind) ? `v.${kind}` : 'v.invalid';
}

function parts(property: string | undefined): string[] {
  return (property || '').replace(/^\./, '').split('.').filter(Boolean);
}

export function localizeErrors(errors: RJSFValidationError[], schema: Json, data: Json | undefined, t: T, locale: string): RJSFValidationError[] {
  const props: Record<string, Json> = schema.properties || {};
  const seen = new Set<string>();
  const out: RJSFValidationError[] = [];
  for (const error of errors) {
    const kind = String(error.name || '');
    const path = parts(error.property);
    const field = path[0] || '';
    const prop = props[field];
    if (prop && (NO_DATA.has(kindOf(prop)) || !visible(prop, data))) continue;
    if (seen.has(field)) continue;
    seen.add(field);
    let name = field ? labelOf(schema, field, locale) : t('v.form');
    const inner = path.slice(1);
    if (inner.length && kind !== 'required') name = `${name} (${inner.join(' / ')})`;
    const raw = error.params?.limit;
    const limit = typeof raw === 'number' || typeof raw === 'string' ? raw : '';
    const message = t(messageKey(kind, limit), { field: name, limit });
    out.push({ ...error, message, stack: message });
  }
  return out;
}
