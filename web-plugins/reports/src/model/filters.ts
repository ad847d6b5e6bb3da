/**
 * Filter widgets' rules (spec 3.4, 4, 5), pure: number range checks and operator, select-all state, date
 * ranges and dynamic dates, and the filter conditions a widget gives each view.
 */
import type { FilterItem, PanelComponent, WidgetAttrs } from './types';

export const INT_MIN = -2147483648;
export const INT_MAX = 2147483647;

export type BoundError = 'mustInt' | 'outOfMin' | 'outOfMax';

/** One bound of the number range widget: empty is fine (no bound); otherwise an integer within range. */
export function checkBound(text: string | number | null | undefined): { value: number | null; error?: BoundError } {
  const raw = text === null || text === undefined ? '' : String(text).trim();
  if (raw === '') return { value: null };
  if (!/^[-+]?\d+$/.test(raw)) return { value: null, error: 'mustInt' };
  const n = Number(raw);
  if (n < INT_MIN) return { value: null, error: 'outOfMin' };
  if (n > INT_MAX) return { value: null, error: 'outOfMax' };
  return { value: n };
}

/** Spec 5: only a minimum gives ge, only a maximum le, both between, none an empty filter. */
export function numberRangeCondition(min: number | null, max: number | null): { operator: FilterItem['operator']; value: number[] } | null {
  if (min !== null && max !== null) return { operator: 'between', value: [Math.min(min, max), Math.max(min, max)] };
  if (min !== null) return { operator: 'ge', value: [min] };
  if (max !== null) return { operator: 'le', value: [max] };
  return null;
}

/** The select-all box: checked when all are chosen, indeterminate when some, else unchecked. */
export function selectAllState(chosen: number, total: number): 'checked' | 'indeterminate' | 'unchecked' {
  if (total > 0 && chosen >= total) return 'checked';
  if (chosen > 0) return 'indeterminate';
  return 'unchecked';
}

/** A single-choice radio toggles off when the chosen value is clicked again. */
export function toggleRadio(current: unknown, clicked: unknown): unknown {
  return current === clicked ? null : clicked;
}

/** A date range needs exactly two values (spec 5). */
export function validDateRange(values: unknown): values is [string, string] {
  return Array.isArray(values) && values.length === 2 && values.every((v) => v !== null && v !== undefined && v !== '');
}

// ---------------------------------------------------------------------------------------------------------
// dynamic dates (spec 3.4): the same keys as the server's dataset/field/dynamicDates
// ---------------------------------------------------------------------------------------------------------

export interface DynamicDefault {
  isDynamic?: boolean;
  dkey?: string | number;
  dynamicPrefix?: number | string;
  dynamicInfill?: string;
  dynamicSuffix?: string;
}

function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function addMonths(d: Date, months: number): Date {
  const m = d.getMonth() + months;
  const y = d.getFullYear() + Math.floor(m / 12);
  const mm = ((m % 12) + 12) % 12;
  const last = new Date(y, mm + 1, 0).getDate();
  return new Date(y, mm, Math.min(d.getDate(), last));
}

function shift(d: Date, amount: number, unit: string): Date {
  if (unit === 'week') return new Date(d.getFullYear(), d.getMonth(), d.getDate() + amount * 7);
  if (unit === 'month') return addMonths(d, amount);
  if (unit === 'year') return addMonths(d, amount * 12);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + amount);
}

const NUMERIC_KEYS: Record<number, string> = { 0: 'today', 1: 'yesterday', 2: 'monthStart', 3: 'custom' };

/** The day (or [first, last] days) a dynamic default means on `today`, as YYYY-MM-DD. */
export function dynamicDates(def: DynamicDefault, today: Date = new Date()): string[] {
  const d = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  const key = typeof def.dkey === 'number' ? NUMERIC_KEYS[def.dkey] || 'today' : def.dkey || 'today';
  const n = Math.max(0, Number(def.dynamicPrefix ?? 1) || 0);
  const moved = () => shift(d, def.dynamicSuffix === 'after' ? n : -n, def.dynamicInfill || 'day');
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7));
  const q = new Date(d.getFullYear(), Math.floor(d.getMonth() / 3) * 3, 1);
  const day = (x: Date, days: number) => new Date(x.getFullYear(), x.getMonth(), x.getDate() + days);
  switch (key) {
    case 'today': return [ymd(d)];
    case 'yesterday': return [ymd(day(d, -1))];
    case 'monthStart': return [ymd(new Date(d.getFullYear(), d.getMonth(), 1))];
    case 'yearStart': return [ymd(new Date(d.getFullYear(), 0, 1))];
    case 'custom': return [ymd(moved())];
    case 'customRange': return [moved(), d].sort((a, b) => a.getTime() - b.getTime()).map(ymd);
    case 'thisWeek': return [ymd(monday), ymd(day(monday, 6))];
    case 'lastWeek': return [ymd(day(monday, -7)), ymd(day(monday, -1))];
    case 'thisMonth': return [ymd(new Date(d.getFullYear(), d.getMonth(), 1)), ymd(new Date(d.getFullYear(), d.getMonth() + 1, 0))];
    case 'lastMonth': return [ymd(new Date(d.getFullYear(), d.getMonth() - 1, 1)), ymd(new Date(d.getFullYear(), d.getMonth(), 0))];
    case 'thisQuarter': return [ymd(q), ymd(day(addMonths(q, 3), -1))];
    case 'lastQuarter': return [ymd(addMonths(q, -3)), ymd(day(q, -1))];
    case 'thisYear': return [`${d.getFullYear()}-01-01`, `${d.getFullYear()}-12-31`];
    case 'lastYear': return [`${d.getFullYear() - 1}-01-01`, `${d.getFullYear() - 1}-12-31`];
    default: return [ymd(d)];
  }
}

// ---------------------------------------------------------------------------------------------------------
// widgets and their conditions
// ---------------------------------------------------------------------------------------------------------

export type WidgetKind = 'select' | 'number-range' | 'date' | 'text' | 'search' | 'reset' | 'export' | 'none';

const SELECT_NAMES = ['de-select', 'de-select-grid', 'de-select-tree', 'textSelectWidget', 'textSelectGridWidget', 'numberSelectWidget', 'numberSelectGridWidget', 'textSelectTreeWidget'];
const DATE_NAMES = ['de-date', 'timeDateWidget', 'timeDateRangeWidget', 'timeYearWidget', 'timeMonthWidget'];
const NUMBER_NAMES = ['de-number-range', 'numberRangeWidget'];
const TEXT_NAMES = ['de-input-search', 'textInputWidget'];

/** What a `custom` or `custom-button` component is. */
export function widgetKind(c: Pick<PanelComponent, 'type' | 'component' | 'serviceName' | 'options'>): WidgetKind {
  const names = [c.component, c.serviceName].filter(Boolean) as string[];
  if (c.type === 'custom-button' || names.some((n) => /button/i.test(n))) {
    if (names.includes('buttonResetWidget')) return 'reset';
    if (names.includes('buttonExportWidget')) return 'export';
    return 'search';
  }
  if (names.some((n) => SELECT_NAMES.includes(n))) return 'select';
  if (names.some((n) => DATE_NAMES.includes(n))) return 'date';
  if (names.some((n) => NUMBER_NAMES.includes(n))) return 'number-range';
  if (names.some((n) => TEXT_NAMES.includes(n))) return 'text';
  const type = c.options?.attrs?.type || '';
  if (/date|time|month|year/.test(type)) return 'date';
  if (/select/.test(type)) return 'select';
  if (/number/.test(type)) return 'number-range';
  if (/text|input/.test(type)) return 'text';
  return 'none';
}

/** A widget's value as a condition (without fieldId and viewIds), or null when it sets no filter. */
export function widgetCondition(kind: WidgetKind, attrs: WidgetAttrs, value: unknown): { operator: FilterItem['operator']; value: unknown[] } | null {
  if (kind === 'select') {
    const list = Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value];
    if (!list.length) return null;
    return attrs.multiple || list.length > 1 ? { operator: 'in', value: list } : { operator: 'eq', value: list };
  }
  if (kind === 'number-range') {
    const [min, max] = Array.isArray(value) ? value : [null, null];
    return numberRangeCondition(min ?? null, max ?? null);
  }
  if (kind === 'date') {
    if (/range/.test(String(attrs.type || '')) || Array.isArray(value)) {
      // spec 5: a range needs exactly two values, otherwise it sets no filter
      return validDateRange(value) ? { operator: 'between', value } : null;
    }
    return value ? { operator: 'eq', value: [value] } : null;
  }
  if (kind === 'text') {
    const text = typeof value === 'string' ? value.trim() : '';
    return text ? { operator: 'like', value: [text] } : null;
  }
  return null;
}

/** The conditions a widget gives: one per bound field id (fieldId is a comma-separated list). */
export function widgetFilters(component: PanelComponent, value: unknown): FilterItem[] {
  const attrs = component.options?.attrs || {};
  const cond = widgetCondition(widgetKind(component), attrs, value);
  if (!cond) return [];
  const ids = String(attrs.fieldId || '').split(',').map((s) => s.trim()).filter(Boolean);
  const viewIds = Array.isArray(attrs.filterIds) && attrs.filterIds.length ? attrs.filterIds : undefined;
  return ids.map((fieldId) => ({ componentId: component.id, fieldId, operator: cond.operator, value: cond.value, viewIds }));
}

/** The filters that reach one view: those with no view list, or listing it. */
export function filtersForView(filters: FilterItem[], viewId: string): FilterItem[] {
  return filters.filter((f) => !f.viewIds || !f.viewIds.length || f.viewIds.includes(viewId));
}

/** The initial value of a widget: a dynamic date default, else the stored value. */
export function initialValue(component: PanelComponent, today: Date = new Date()): unknown {
  const kind = widgetKind(component);
  const attrs = component.options?.attrs || {};
  const def = attrs.default;
  if (kind === 'date' && def?.isDynamic) {
    const range = /range/.test(attrs.type || '') || component.serviceName === 'timeDateRangeWidget';
    const dates = dynamicDates(def, today);
    if (range) return dates.length === 2 ? dates : [dates[0], dates[0]];
    return dates[0];
  }
  const v = component.options?.value;
  if (kind === 'number-range') return Array.isArray(v) && v.length === 2 ? v : [null, null];
  if (kind === 'select') {
    if (Array.isArray(v)) return attrs.multiple ? v : v[0] ?? null;
    return attrs.multiple ? (v === undefined || v === null || v === '' ? [] : [v]) : v ?? null;
  }
  if (kind === 'date') return Array.isArray(v) && v.length ? v : v || (/range/.test(attrs.type || '') ? [] : null);
  return v ?? '';
}

/** The empty value a reset puts back. */
export function emptyValue(component: PanelComponent): unknown {
  const kind = widgetKind(component);
  const attrs = component.options?.attrs || {};
  if (kind === 'number-range') return [null, null];
  if (kind === 'select') return attrs.multiple ? [] : null;
  if (kind === 'date') return /range/.test(attrs.type || '') ? [] : null;
  return '';
}
