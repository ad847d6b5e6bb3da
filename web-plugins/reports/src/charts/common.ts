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

/** The interface locale (zh-cn, en-us, ...) as a BCP 47 tag for Intl (zh-CN, en-US, ...). */
export function intlLocale(locale?: string | null): string {
  const raw = String(locale || '').replace('_', '-').replace('#', '-').trim();
  if (!raw) return 'en-US';
  const [lang, region] = raw.split('-');
  const tag = region ? `${lang.toLowerCase()}-${region.toUpperCase()}` : lang.toLowerCase();
  try {
    return Intl.NumberFormat.supportedLocalesOf([tag]).length ? tag : 'en-US';
  } catch {
    return 'en-US';
  }
}

const FORMATS = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per locale and options, built once. */
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const tag = intlLocale(locale);
  const key = `${tag}|${JSON.stringify(options)}`;
  let f = FORMATS.get(key);
  if (!f) {
    f = new Intl.NumberFormat(tag, options);
    FORMATS.set(key, f);
  }
  return f;
}

function toFinite(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The decimals a value format asks for, or undefined when it leaves them to the value (auto). */
export function formatDecimals(format?: ValueFormat | null): number | undefined {
  if (!format || !format.formatType || format.formatType === 'auto') return undefined;
  return clamp(Math.round(Number(format.decimalNumber ?? 2)), 0, 10);
}

/**
 * A number shown by a value format (spec 3.3), in full: number with its decimals and thousands separators, or
 * percent (the value times 100); without a format, integers as they are and other values with 2 decimals at most.
 * Separators follow the locale (1,234.5 in en-us and zh-cn, 1.234,5 in vi-vn).
 */
export function formatValue(value: unknown, format?: ValueFormat | null, locale?: string): string {
  const n = toFinite(value);
  if (n === null) return value === null || value === undefined || value === '' ? '-' : String(value);
  const digits = formatDecimals(format);
  if (digits === undefined) return numberFormat(locale, { maximumFractionDigits: Number.isInteger(n) ? 0 : 2 }).format(n);
  const useGrouping = format!.thousandSeparator !== false;
  if (format!.formatType === 'percent') {
    return numberFormat(locale, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping }).format(n);
  }
  return numberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping }).format(n);
}

/** From this size on, numbers are shown with units (万/亿 in Chinese, K/M/B otherwise). */
export const COMPACT_FROM = 10000;

/**
 * A number with locale-aware units once it reaches 10,000 (Intl compact notation: 1120.05万, 1.2亿 in Chinese,
 * 11.2M otherwise), for axes, labels and other small spaces; smaller numbers and percent formats as formatValue.
 * Labels keep the format's decimals; axis ticks (`axis`) drop trailing zeros.
 */
export function formatCompact(value: unknown, format?: ValueFormat | null, locale?: string, axis = false): string {
  const n = toFinite(value);
  if (n === null) return formatValue(value, format, locale);
  const digits = formatDecimals(format);
  if (format?.formatType === 'percent') {
    if (!axis) return formatValue(n, format, locale);
    return numberFormat(locale, { style: 'percent', maximumFractionDigits: digits ?? 2 }).format(n);
  }
  if (Math.abs(n) < COMPACT_FROM) {
    if (axis || digits === undefined) return numberFormat(locale, { maximumFractionDigits: Number.isInteger(n) ? 0 : Math.min(digits ?? 2, 2) }).format(n);
    return formatValue(n, format, locale);
  }
  const max = digits === undefined ? 1 : Math.min(digits, 2);
  return numberFormat(locale, { notation: 'compact', minimumFractionDigits: axis ? 0 : Math.min(max, digits ?? 0), maximumFractionDigits: max }).format(n);
}

/** A ratio (0.561) as a percentage (56.1%) with the given decimals at most, or exactly (`fixed`). */
export function formatPercent(ratio: number | null, decimals = 2, locale?: string, fixed = false): string {
  if (ratio === null || !Number.isFinite(ratio)) return '-';
  const d = clamp(Math.round(decimals), 0, 10);
  return numberFormat(locale, { style: 'percent', minimumFractionDigits: fixed ? d : 0, maximumFractionDigits: d }).format(ratio);
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
