/**
 * Pure helpers shared by the echarts and g2plot option builders (no DOM): parsing a view's customAttr and
 * customStyle, colours with alpha, the palette, value formats, thresholds and the spec's defaults.
 */
import type { ChartData, ChartView, Datum, Point, Series, ValueFormat } from '../model/types';

/** Spec 9: the palette cycles over 9 colours. */
export const DEFAULT_COLORS = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'];

/** Spec 9 defaults. */
export const DEFAULTS = {
  barWidth: 40,
  lineWidth: 2,
  bubbleDesktop: 80,
  bubbleMobile: 30,
  symbolSize: 20,
  symbolRange: [5, 30] as [number, number],
  wordSize: [8, 32] as [number, number],
  wordPadding: 6,
  liquidMax: 100,
  liquidSize: 80,
  gaugeMax: 100,
  tablePageSize: 20,
  tableRowHeight: 36,
  pagerPages: 5,
  chartPageSize: 1000,
};

export type Json = Record<string, any>;

export function parseJson<T = Json>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      return (parsed ?? fallback) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export function isObject(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Deep merge of plain objects (arrays replace). */
export function merge<T extends Json>(base: T, ...patches: (Json | undefined | null)[]): T {
  const out: Json = { ...base };
  for (const patch of patches) {
    if (!isObject(patch)) continue;
    for (const [k, v] of Object.entries(patch)) {
      out[k] = isObject(v) && isObject(out[k]) ? merge(out[k], v) : v;
    }
  }
  return out as T;
}

/** What the builders read from a view. */
export interface Styles {
  attr: Json;
  style: Json;
  senior: Json;
}

/**
 * The view's customAttr / customStyle; with stylePriority `panel` the panel's chart colours win over the
 * view's own (spec 3.1 panelStyle.chart.customAttr).
 */
export function viewStyles(view: Pick<ChartView, 'customAttr' | 'customStyle' | 'senior' | 'stylePriority'>, panelChart?: Json): Styles {
  let attr = parseJson<Json>(view.customAttr, {});
  const style = parseJson<Json>(view.customStyle, {});
  const senior = parseJson<Json>(view.senior, {});
  const panelAttr = panelChart && isObject(panelChart.customAttr) ? panelChart.customAttr : undefined;
  if (panelAttr && view.stylePriority !== 'view') {
    attr = merge(attr, { color: panelAttr.color, tableColor: panelAttr.tableColor });
  } else if (panelAttr) {
    attr = merge({ color: panelAttr.color }, attr);
  }
  return { attr: isObject(attr) ? attr : {}, style: isObject(style) ? style : {}, senior: isObject(senior) ? senior : {} };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** `#rgb`, `#rrggbb`, `rgb()` or `rgba()` with an alpha in percent (0-100) as `rgba(r, g, b, a)`. */
export function withAlpha(color: string | undefined, alpha: number | undefined): string {
  const c = (color || '').trim();
  const a = alpha === undefined || alpha === null || Number.isNaN(Number(alpha)) ? 1 : clamp(Number(alpha), 0, 100) / 100;
  let r: number, g: number, b: number;
  let m = /^#([0-9a-f]{3})$/i.exec(c);
  if (m) {
    [r, g, b] = m[1].split('').map((h) => parseInt(h + h, 16));
  } else if ((m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(c))) {
    r = parseInt(m[1].slice(0, 2), 16);
    g = parseInt(m[1].slice(2, 4), 16);
    b = parseInt(m[1].slice(4, 6), 16);
  } else if ((m = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/i.exec(c))) {
    [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else {
    return c || `rgba(0, 0, 0, ${a})`;
  }
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

/** The palette (customAttr.color.colors, else the 9 defaults) with the colour alpha applied. */
export function palette(attr: Json): string[] {
  const color = isObject(attr.color) ? attr.color : {};
  const colors: string[] = Array.isArray(color.colors) && color.colors.length ? color.colors : DEFAULT_COLORS;
  const alpha = color.alpha ?? 100;
  return colors.map((c) => withAlpha(c, alpha));
}

export function colorAt(colors: string[], i: number): string {
  return colors[((i % colors.length) + colors.length) % colors.length];
}

/** A number shown by a value format (spec 3.3): number with decimals, or percent. */
export function formatValue(value: unknown, format?: ValueFormat | null): string {
  if (value === null || value === undefined || value === '') return '-';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  if (!format || !format.formatType || format.formatType === 'auto') {
    return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
  const digits = clamp(Math.round(Number(format.decimalNumber ?? 2)), 0, 10);
  const sep = format.thousandSeparator !== false;
  if (format.formatType === 'percent') {
    return `${(n * 100).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: sep })}%`;
  }
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: sep });
}

/** Threshold rules (spec 3.3): type between, eq, not_eq, lt, gt, le, ge; values; color. */
export interface ThresholdRule {
  type: 'between' | 'eq' | 'not_eq' | 'lt' | 'gt' | 'le' | 'ge' | string;
  values?: (number | string)[];
  value?: number | string;
  min?: number | string;
  max?: number | string;
  color: string;
  backgroundColor?: string;
  /** Field key or id the rule applies to (tables); empty means any value. */
  field?: string;
}

export interface Threshold {
  ruleList: ThresholdRule[];
  target?: string;
}

/** The threshold of a view, wherever the editor kept it (customAttr, customStyle or senior). */
export function viewThreshold(s: Styles): Threshold {
  const raw = s.attr.threshold ?? s.style.threshold ?? s.senior.threshold;
  if (!isObject(raw)) return { ruleList: [] };
  const rules = Array.isArray(raw.ruleList) ? raw.ruleList : Array.isArray(raw.rules) ? raw.rules : [];
  return { ruleList: rules.filter((r: unknown) => isObject(r) && typeof (r as Json).type === 'string'), target: raw.target };
}

function ruleValues(rule: ThresholdRule): number[] {
  if (Array.isArray(rule.values)) return rule.values.map(Number);
  if (rule.type === 'between') return [Number(rule.min), Number(rule.max)];
  return [Number(rule.value)];
}

export function matchesRule(value: unknown, rule: ThresholdRule): boolean {
  const n = Number(value);
  if (value === null || value === undefined || Number.isNaN(n)) return false;
  const [a, b] = ruleValues(rule);
  switch (rule.type) {
    case 'between':
      return n >= Math.min(a, b) && n <= Math.max(a, b);
    case 'eq':
      return n === a;
    case 'not_eq':
      return n !== a;
    case 'lt':
      return n < a;
    case 'gt':
      return n > a;
    case 'le':
      return n <= a;
    case 'ge':
      return n >= a;
    default:
      return false;
  }
}

/** The colour of the first rule the value meets, if any. */
export function thresholdColor(value: unknown, threshold: Threshold, field?: string): string | undefined {
  for (const rule of threshold.ruleList) {
    if (rule.field && field && rule.field !== field) continue;
    if (matchesRule(value, rule)) return rule.color;
  }
  return undefined;
}

export function pointValue(p: Point | null | undefined): number | null {
  if (!p || p.value === null || p.value === undefined) return null;
  const n = Number(p.value);
  return Number.isFinite(n) ? n : null;
}

export function seriesValues(s: Series): (number | null)[] {
  return s.data.map(pointValue);
}

/** The single value of gauge, liquid and text views: the first point of the first series. */
export function singleValue(data: ChartData | undefined): number | null {
  const s = data?.series?.[0];
  if (!s) return null;
  const first = s.data.find((p) => p !== null);
  return pointValue(first);
}

export function fontSize(v: unknown, fallback: number): number {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function datas(data: ChartData | undefined): Datum[] {
  return Array.isArray(data?.datas) ? data!.datas : [];
}

/** Size settings with the spec's defaults. */
export function sizeOf(attr: Json): Json {
  return isObject(attr.size) ? attr.size : {};
}

export function labelOf(attr: Json): Json {
  return isObject(attr.label) ? attr.label : {};
}

export function tooltipOf(attr: Json): Json {
  return isObject(attr.tooltip) ? attr.tooltip : {};
}

export function num(v: unknown, fallback: number): number {
  const n = Number(v);
  return v === null || v === undefined || v === '' || !Number.isFinite(n) ? fallback : n;
}
