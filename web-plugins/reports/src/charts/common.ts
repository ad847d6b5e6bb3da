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

const TAGS = new Map<string, string>();

/** The interface locale (zh-cn, en-us, ...) as a BCP 47 tag for Intl (zh-CN, en-US, ...); each looked up once
 * (every number formatted asks). */
export function intlLocale(locale?: string | null): string {
  const raw = String(locale || '').replace('_', '-').replace('#', '-').trim();
  if (!raw) return 'en-US';
  let tag = TAGS.get(raw);
  if (!tag) {
    tag = supportedTag(raw);
    TAGS.set(raw, tag);
  }
  return tag;
}

function supportedTag(raw: string): string {
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

/** How a locale writes one of each of its compact units ("1K", "1M"; "1万", "1亿"; "1 E"), smallest first. */
const UNITS = new Map<string, { size: number; one: string }[]>();

function compactUnits(locale?: string): { size: number; one: string }[] {
  const tag = intlLocale(locale);
  let units = UNITS.get(tag);
  if (!units) {
    units = [];
    const f = numberFormat(locale, { notation: 'compact', maximumFractionDigits: 0 });
    for (let e = 3; e <= 15; e++) {
      const one = f.format(10 ** e);
      // a unit of its own is written as a lone 1 and the unit (10K or 1000 are not)
      if (/^1\D/.test(one) || /\D1$/.test(one)) units.push({ size: 10 ** e, one });
    }
    UNITS.set(tag, units);
  }
  return units;
}

/** The decimals a step needs (0.25 needs 2, 5000 none), at most `cap`. */
export function stepDecimals(step: number, cap = 2): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  for (let d = 0; d < cap; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6 * 10 ** d) return d;
  return cap;
}

/**
 * How a value axis writes its ticks: one format for all of them, chosen from the largest (`max`, the axis' bound
 * farthest from 0). From 10,000 on every tick is written in that number's unit (0.5万 1万 1.5万, 6K 12K 18K), below
 * it every tick in full with separators (3,000 6,000 9,000); the decimals are those of the step (the tick interval,
 * when known). A percent format keeps percent.
 */
export function axisFormatter(max: number, step: number | undefined, format?: ValueFormat | null, locale?: string): (v: unknown) => string {
  if (format?.formatType === 'percent') return (v) => formatCompact(v, format, locale, true);
  const top = Math.abs(max);
  const unit = top >= COMPACT_FROM ? compactUnits(locale).filter((u) => u.size <= top).pop() : undefined;
  const size = unit?.size ?? 1;
  const digits = step ? stepDecimals(step / size) : 2;
  const full = numberFormat(locale, { maximumFractionDigits: digits });
  // a number of units is written as Intl writes compact numbers: without separators (5000万)
  const units = numberFormat(locale, { maximumFractionDigits: digits, useGrouping: false });
  return (v) => {
    const n = toFinite(v);
    if (n === null) return '';
    if (n === 0 || !unit) return full.format(n);
    return unit.one.replace('1', units.format(n / size));
  };
}

/** A value axis' bounds and step: `min` and `max` multiples of `interval`. */
export interface AxisScale {
  min: number;
  max: number;
  interval: number;
}

/** The steps an axis may take: 1, 2, 2.5 and 5 times a power of ten. */
const NICE = [1, 2, 2.5, 5];

function roundTo(n: number, step: number): number {
  const d = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(n.toFixed(Math.min(20, d)));
}

/**
 * The axis from `lo` to `hi` in at most `maxSteps` nice steps (the fewest pixels a tick may have decide how many):
 * the smallest nice step that covers the range. `fits(span)` may widen the range for an axis spanning `span`
 * (bubbles keep their radius clear of the axis); `integer` keeps whole steps (counts).
 */
export function niceScale(lo: number, hi: number, maxSteps: number, opts: { integer?: boolean; fits?: (span: number) => { lo: number; hi: number } } = {}): AxisScale {
  let a = Math.min(lo, hi);
  let b = Math.max(lo, hi);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return { min: 0, max: 1, interval: 1 };
  if (a === b) {
    const pad = a === 0 ? 1 : Math.abs(a) / 2;
    a = a >= 0 && a - pad < 0 ? 0 : a - pad;
    b += pad;
  }
  // a range across 0 needs two steps at least (0 is always a tick); the steps asked for first, then one more
  const fewest = Math.max(1, Math.floor(maxSteps));
  for (let steps = fewest; steps <= fewest + 2; steps++) {
    let exp = Math.floor(Math.log10((b - a) / steps)) - 1;
    for (let guard = 0; guard < 12; guard++, exp++) {
      for (const m of NICE) {
        const step = m * 10 ** exp;
        if (opts.integer && !Number.isInteger(step)) continue;
        for (let n = 1; n <= steps; n++) {
          const need = opts.fits ? opts.fits(n * step) : { lo: a, hi: b };
          const min = roundTo(Math.floor(Math.min(need.lo, a) / step) * step, step);
          const max = roundTo(min + n * step, step);
          if (max >= Math.max(need.hi, b) - 1e-9 * (b - a)) return { min, max, interval: step };
        }
      }
    }
  }
  return { min: a, max: b, interval: b - a };
}

/** How many steps an axis of `px` pixels has room for, each at least `gap` pixels (5 at most). */
export function axisSteps(px: number, gap: number): number {
  return Math.max(1, Math.min(5, Math.floor(px / gap)));
}

/** About the pixels a text takes at a font size (CJK characters are wider than digits and Latin letters). */
export function textWidth(text: string, font: number): number {
  let w = 0;
  for (const ch of text) w += /[\u2E80-\uFFEF]/.test(ch) ? font : font * 0.62;
  return w;
}

/** The least room a value axis' tick has: labels on a vertical axis are never closer than this. */
export const TICK_GAP = 24;

/** The decimals of a number as it is shown (auto format: 2 at most). */
export function shownDecimals(value: unknown, cap = 2): number {
  const n = toFinite(value);
  if (n === null || Number.isInteger(n)) return 0;
  const text = n.toFixed(cap).replace(/0+$/, '');
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * The one format of a column (or a series) of numbers: the field's own when it has one, otherwise every number
 * with as many decimals as the most precise of them needs (2 at most), so 389,843.07 and 12,413,604.00 line up.
 */
export function columnFormat(values: unknown[], format?: ValueFormat | null): ValueFormat | null | undefined {
  if (formatDecimals(format) !== undefined) return format;
  const decimals = values.reduce<number>((d, v) => Math.max(d, shownDecimals(v)), 0);
  return { ...(format || {}), formatType: 'number', decimalNumber: decimals, thousandSeparator: format?.thousandSeparator !== false };
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
