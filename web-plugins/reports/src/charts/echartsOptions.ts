/**
 * From a view and its data to an echarts option (spec 2.3, 9), one pure function per kind. Data items keep
 * their dimensionList and quotaList so a click knows what was clicked.
 */
import type { ChartData, ChartView, Point, Series } from '../model/types';
import {
  DEFAULTS, TICK_GAP, axisFormatter, axisSteps, colorAt, datas, fontSize, formatCompact, formatDecimals, formatPercent, formatValue, isObject,
  labelOf, niceScale, num, palette, pointValue, singleValue, sizeOf, textWidth, thresholdColor, tooltipOf, viewStyles, viewThreshold,
  withAlpha, type AxisScale, type Json, type Styles, type Threshold,
} from './common';
import type { ValueFormat } from '../model/types';

export const ECHARTS_KINDS = [
  'bar', 'bar-stack', 'bar-horizontal', 'bar-contrast', 'bar-stack-horizontal', 'line', 'line-stack', 'pie', 'pie-rose',
  'funnel', 'radar', 'gauge', 'gauge-percentage', 'scatter', 'treemap', 'chart-mix', 'map',
] as const;
export type EchartsKind = (typeof ECHARTS_KINDS)[number];

/** The map the plugin ships (src/maps/china.json), registered under this name. */
export const MAP_NAME = 'atrium-china';

export interface BuildContext {
  /** Phone-sized: smaller bubbles (spec 9: 80 desktop, 30 otherwise). */
  mobile?: boolean;
  /** The panel's chart styles (panelStyle.chart). */
  panelChart?: Json;
  /** The interface locale (zh-cn, en-us, ...): separators and units (万/亿 or K/M/B) follow it. */
  locale?: string;
  /** The chart's size in pixels, once known: bubbles are never taller than a third of it. */
  width?: number;
  height?: number;
}

/** The widest a category label may be before it is cut with an ellipsis (its full text in a tooltip). */
export const CATEGORY_LABEL_WIDTH = 96;

export interface EchartsResult {
  option: Json;
  /** How many series the chart draws (tests compare it with the data). */
  seriesCount: number;
}

interface Ctx {
  view: ChartView;
  data: ChartData;
  s: Styles;
  colors: string[];
  threshold: Threshold;
  build: BuildContext;
  locale?: string;
}

function textStyle(t: Json | undefined, fallback = 12): Json {
  const out: Json = { fontSize: fontSize(t?.fontSize, fallback) };
  if (t?.color) out.color = t.color;
  return out;
}

export function legendOption(s: Styles, names: string[]): Json {
  const legend = isObject(s.style.legend) ? s.style.legend : {};
  const show = legend.show !== false && names.length > 0;
  const out: Json = { show, type: 'scroll', data: names, orient: legend.orient || 'horizontal', icon: legend.icon || 'rect' };
  const h = legend.hPosition || 'center';
  const v = legend.vPosition || 'bottom';
  out.left = h;
  if (v === 'center') out.top = 'middle';
  else out[v === 'top' ? 'top' : 'bottom'] = 0;
  out.textStyle = textStyle(legend.textStyle, 12);
  // small marks and gaps: a few names fit a small card without paging
  Object.assign(out, { itemWidth: 12, itemHeight: 8, itemGap: 8 });
  return out;
}

export function tooltipOption(s: Styles, trigger: 'item' | 'axis' = 'item', valueFormatter?: (v: unknown) => string): Json {
  const tip = tooltipOf(s.attr);
  const out: Json = { show: tip.show !== false, trigger: tip.trigger || trigger, confine: true };
  if (valueFormatter) out.valueFormatter = valueFormatter;
  if (isObject(tip.textStyle)) out.textStyle = textStyle(tip.textStyle);
  if (tip.backgroundColor) out.backgroundColor = tip.backgroundColor;
  if (trigger === 'axis' && out.trigger === 'axis') out.axisPointer = { type: 'shadow' };
  return out;
}

function labelOption(s: Styles, position: string, format?: (v: number | null) => string): Json {
  const label = labelOf(s.attr);
  const out: Json = { show: !!label.show, position: label.position || position, fontSize: fontSize(label.fontSize, 10) };
  if (out.show) out.overflow = 'truncate';
  if (label.color) out.color = label.color;
  if (format) out.formatter = (p: { value: unknown; data?: { value?: unknown } }) => format(toNumber(p.data?.value ?? p.value));
  return out;
}

function toNumber(v: unknown): number | null {
  if (Array.isArray(v)) v = v[v.length - 1];
  const n = Number(v);
  return v === null || v === undefined || !Number.isFinite(n) ? null : n;
}

/** Axis numbers: 12,500,000 reads 12.5M (1250万 in Chinese) so small charts keep their labels apart. */
export function compactNumber(v: number, locale?: string, format?: ValueFormat | null): string {
  return formatCompact(v, format, locale, true);
}

/** How a value axis shows its ticks: with units, in the quota's format (percent stays percent). */
function valueAxisFormatter(locale?: string, format?: ValueFormat | null) {
  return (v: number) => compactNumber(v, locale, format);
}

/**
 * An axis from customStyle.xAxis / yAxis / yAxisExt. Category labels never overlap: echarts thins them
 * (interval auto), hides any that would still touch, and cuts long ones with an ellipsis (full text in a tooltip).
 */
export function axisOption(conf: Json | undefined, type: 'category' | 'value', data?: string[], locale?: string, format?: ValueFormat | null): Json {
  const a = isObject(conf) ? conf : {};
  const out: Json = { type, show: a.show !== false };
  if (data) out.data = data;
  if (a.position) out.position = a.position;
  if (a.name) out.name = a.name;
  const label = isObject(a.axisLabel) ? a.axisLabel : {};
  out.axisLabel = { show: label.show !== false, rotate: num(label.rotate, 0), ...textStyle(label, 12) };
  if (type === 'category') {
    Object.assign(out.axisLabel, { hideOverlap: true, interval: 'auto', width: CATEGORY_LABEL_WIDTH, overflow: 'truncate', ellipsis: '…' });
    out.tooltip = { show: true, formatter: (p: { value?: unknown; name?: string }) => escapeHtml(String(p.value ?? p.name ?? '')) };
  } else {
    out.axisLabel.hideOverlap = true;
  }
  out.splitLine = { show: isObject(a.splitLine) ? a.splitLine.show !== false : type === 'value' };
  if (isObject(a.axisLine)) out.axisLine = { show: a.axisLine.show !== false };
  const value = isObject(a.axisValue) ? a.axisValue : null;
  if (type === 'value') out.axisLabel.formatter = valueAxisFormatter(locale, format);
  if (type === 'value' && value && value.auto === false) {
    if (value.min !== undefined && value.min !== '') out.min = Number(value.min);
    if (value.max !== undefined && value.max !== '') out.max = Number(value.max);
    if (value.split) out.interval = Number(value.split);
  }
  return out;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A quota's numbers in full (tooltips): its value format, the locale's separators. */
function fmtOf(series: Series | undefined, locale?: string) {
  const vf = series?.property?.valueFormat;
  return (v: number | null) => formatValue(v, vf || undefined, locale);
}

/** A quota's numbers where room is short (labels): with units from 10,000 on, the format's decimals. */
function shortOf(series: Series | undefined, locale?: string) {
  const vf = series?.property?.valueFormat;
  return (v: number | null) => formatCompact(v, vf || undefined, locale);
}

/** The tooltip's value formatter of a chart: each series' own format when the tooltip names it. */
function tipValues(c: Ctx) {
  const first = c.data.series[0];
  return (v: unknown) => fmtOf(first, c.locale)(toNumber(v));
}

function axisFormat(c: Ctx, axis: 'yaxis' | 'yaxisExt' = 'yaxis'): ValueFormat | null | undefined {
  const s = c.data.series.find((x) => (x.property?.axis || 'yaxis') === axis) || c.data.series[0];
  return s?.property?.valueFormat;
}

/** The kinds whose option depends on the chart's size: value axes get as many ticks as they have room for, bubbles
 * keep clear of the axes. */
export const SIZED_KINDS: ReadonlySet<string> = new Set([
  'bar', 'bar-stack', 'bar-horizontal', 'bar-stack-horizontal', 'bar-contrast', 'line', 'line-stack', 'scatter', 'chart-mix',
]);

/** The values a value axis must show, from 0: every point, or the sums of the stacks. */
export function valueExtent(series: Series[], stacked: boolean): [number, number] {
  let lo = 0;
  let hi = 0;
  const n = Math.max(0, ...series.map((s) => s.data.length));
  for (let i = 0; i < n; i++) {
    let pos = 0;
    let neg = 0;
    for (const s of series) {
      const v = pointValue(s.data[i]);
      if (v === null) continue;
      if (stacked) {
        if (v > 0) pos += v;
        else neg += v;
      } else {
        hi = Math.max(hi, v);
        lo = Math.min(lo, v);
      }
    }
    hi = Math.max(hi, pos);
    lo = Math.min(lo, neg);
  }
  return [lo, hi];
}

/** Whether every value of the series is a whole number (counts): their axis keeps whole steps. */
function wholeNumbers(series: Series[]): boolean {
  return series.every((s) => s.data.every((p) => {
    const v = pointValue(p);
    return v === null || Number.isInteger(v);
  }));
}

/**
 * The room (pixels) of a cartesian chart's plot, never more than it gets: its height under the grid's margins, the
 * category labels and the legend; its width beside the value labels (`valueLabels`, the widest tick text) or the
 * category labels (horizontal charts). Unknown until the chart's size is.
 */
function plotRoom(c: Ctx, grid: Json, catAxis: Json, horizontal: boolean, valueLabels: string[]): { height: number; width: number } | undefined {
  const { width, height } = c.build;
  if (!width || !height) return undefined;
  const label = isObject(catAxis.axisLabel) ? catAxis.axisLabel : {};
  const font = fontSize(label.fontSize, 12);
  const shown = catAxis.show !== false && label.show !== false;
  const rotate = (Math.abs(num(label.rotate, 0)) * Math.PI) / 180;
  const names = Array.isArray(catAxis.data) ? catAxis.data.map(String) : [];
  const longest = Math.min(CATEGORY_LABEL_WIDTH, Math.max(0, ...names.map((x) => textWidth(x, font))));
  const valueFont = 12;
  const valueWidth = Math.max(0, ...valueLabels.map((x) => textWidth(x, valueFont)));
  const margins = { left: num(grid.left, 0), right: num(grid.right, 0), top: num(grid.top, 0), bottom: num(grid.bottom, 0) };
  if (!horizontal) {
    const under = shown ? (rotate ? Math.sin(rotate) * longest + Math.cos(rotate) * font : font) + 8 : 0;
    return {
      height: height - margins.top - margins.bottom - under - (catAxis.name ? font + 12 : 0) - 6,
      width: width - margins.left - margins.right - valueWidth - 12,
    };
  }
  return {
    height: height - margins.top - margins.bottom - valueFont - 16,
    width: width - margins.left - margins.right - (shown ? longest + 10 : 0) - valueWidth / 2 - 8,
  };
}

/**
 * A value axis whose labels keep apart and share one format: as many nice steps as its room has space for (a tick
 * every TICK_GAP pixels at least when upright, a label's width and a gap across), its bounds and step set; one
 * number format for every tick, chosen from the axis' largest bound (axisFormatter). The editor's own bounds
 * (axisValue.auto false) are kept. `fits` widens the range for an axis of a given span (bubbles); `abs` writes
 * negative ticks as positive ones (the contrast bars).
 */
function fitValueAxis(
  axis: Json,
  conf: Json | undefined,
  extent: [number, number],
  room: number | undefined,
  vertical: boolean,
  c: Ctx,
  format: ValueFormat | null | undefined,
  opts: { integer?: boolean; fits?: (span: number) => { lo: number; hi: number }; abs?: boolean } = {},
): Json {
  const a = isObject(conf) ? conf : {};
  const fixed = isObject(a.axisValue) && a.axisValue.auto === false;
  let scale: AxisScale | undefined;
  if (!fixed && room !== undefined) {
    const rough = axisFormatter(Math.max(Math.abs(extent[0]), Math.abs(extent[1])), undefined, format, c.locale);
    const widest = Math.max(...extent.map((v) => textWidth(rough(opts.abs ? Math.abs(v) : v), 12)));
    const gap = vertical ? TICK_GAP : Math.max(40, widest + 20);
    scale = niceScale(extent[0], extent[1], axisSteps(Math.max(0, room), gap), opts);
    Object.assign(axis, scale);
  }
  const lo = scale ? scale.min : fixed && Number.isFinite(axis.min) ? axis.min : extent[0];
  const hi = scale ? scale.max : fixed && Number.isFinite(axis.max) ? axis.max : extent[1];
  const f = axisFormatter(Math.max(Math.abs(lo), Math.abs(hi)), scale?.interval ?? (Number(axis.interval) || undefined), format, c.locale);
  axis.axisLabel = { ...(axis.axisLabel || {}), formatter: opts.abs ? (v: number) => f(Math.abs(v)) : f };
  return axis;
}

/** The widest texts a value axis over `extent` may show (for the room beside it). */
function extentLabels(extent: [number, number], c: Ctx, format: ValueFormat | null | undefined): string[] {
  const f = axisFormatter(Math.max(Math.abs(extent[0]), Math.abs(extent[1])), undefined, format, c.locale);
  return extent.map((v) => f(v)).concat(f(extent[1] / 3));
}

/** A data item that keeps what a click needs; coloured by the threshold when a rule matches. */
function item(p: Point | null, threshold: Threshold, extra: Json = {}): Json | null {
  if (!p) return { value: null, ...extra };
  const value = pointValue(p);
  const out: Json = { value, dimensionList: p.dimensionList || [], quotaList: p.quotaList || [], ...extra };
  const color = thresholdColor(value, threshold);
  if (color) out.itemStyle = { ...(out.itemStyle || {}), color };
  return out;
}

function base(c: Ctx, names: string[]): Json {
  return {
    color: c.colors,
    backgroundColor: 'transparent',
    animation: true,
    legend: legendOption(c.s, names),
    tooltip: tooltipOption(c.s, 'axis', tipValues(c)),
  };
}

function gridFor(legend: Json): Json {
  return { left: 12, right: 24, top: legend.show && legend.top !== undefined ? 36 : 24, bottom: legend.show && legend.bottom !== undefined ? 36 : 12, containLabel: true };
}

function barSize(c: Ctx): Json {
  const size = sizeOf(c.s.attr);
  if (size.barDefault === false && size.barWidth) return { barWidth: num(size.barWidth, DEFAULTS.barWidth), barGap: `${num(size.barGap, 0.4) * 100}%` };
  return { barMaxWidth: num(size.barWidth, DEFAULTS.barWidth) };
}

function barChart(c: Ctx, opts: { stack?: boolean; horizontal?: boolean }): Json {
  const { data } = c;
  const names = data.series.map((s) => s.name);
  const option = base(c, names);
  const cat = axisOption(c.s.style.xAxis, 'category', data.x, c.locale);
  const val = axisOption(c.s.style.yAxis, 'value', undefined, c.locale, axisFormat(c));
  option.xAxis = opts.horizontal ? val : cat;
  option.yAxis = opts.horizontal ? { ...cat, inverse: true } : val;
  option.grid = gridFor(option.legend);
  const extent = valueExtent(data.series, !!opts.stack);
  const room = plotRoom(c, option.grid, cat, !!opts.horizontal, extentLabels(extent, c, axisFormat(c)));
  fitValueAxis(val, c.s.style.yAxis, extent, opts.horizontal ? room?.width : room?.height, !opts.horizontal, c, axisFormat(c), { integer: wholeNumbers(data.series) });
  option.series = data.series.map((s) => ({
    type: 'bar',
    name: s.name,
    stack: opts.stack ? 'stack' : undefined,
    ...barSize(c),
    label: labelOption(c.s, opts.stack ? 'inside' : opts.horizontal ? 'right' : 'top', shortOf(s, c.locale)),
    labelLayout: { hideOverlap: true },
    data: s.data.map((p) => item(p, c.threshold)),
  }));
  return option;
}

function barContrast(c: Ctx): Json {
  const { data } = c;
  const [left, right] = data.series;
  const names = data.series.slice(0, 2).map((s) => s.name);
  const option = base(c, names);
  option.grid = gridFor(option.legend);
  const yCat = axisOption(c.s.style.xAxis, 'category', data.x, c.locale);
  option.yAxis = { ...yCat, inverse: true };
  const xv = axisOption(c.s.style.yAxis, 'value', undefined, c.locale, axisFormat(c));
  // the left bars are drawn below 0: the axis from minus the left's largest to the right's largest
  const sides = [left, right].filter(Boolean).map((s) => valueExtent([s!], false)[1]);
  const extent: [number, number] = [-(sides[0] ?? 0), sides[1] ?? 0];
  const room = plotRoom(c, option.grid, yCat, true, extentLabels(extent, c, axisFormat(c)));
  option.xAxis = fitValueAxis(xv, c.s.style.yAxis, extent, room?.width, false, c, axisFormat(c), { integer: wholeNumbers(data.series), abs: true });
  const abs = (s: Series | undefined) => (p: { value: unknown; data?: { value?: unknown } }) => shortOf(s, c.locale)(Math.abs(toNumber(p.data?.value ?? p.value) ?? 0));
  option.tooltip = { ...tooltipOption(c.s, 'axis'), valueFormatter: (v: unknown) => fmtOf(left, c.locale)(Math.abs(toNumber(v) ?? 0)) };
  option.series = [left, right].filter(Boolean).map((s, i) => ({
    type: 'bar',
    name: s!.name,
    stack: 'contrast',
    ...barSize(c),
    label: { ...labelOption(c.s, i === 0 ? 'left' : 'right'), formatter: abs(s) },
    labelLayout: { hideOverlap: true },
    data: s!.data.map((p) => {
      const it = item(p, c.threshold);
      if (it && typeof it.value === 'number' && i === 0) it.value = -Math.abs(it.value);
      return it;
    }),
  }));
  return option;
}

function lineChart(c: Ctx, stack: boolean): Json {
  const { data } = c;
  const size = sizeOf(c.s.attr);
  const names = data.series.map((s) => s.name);
  const option = base(c, names);
  option.xAxis = { ...axisOption(c.s.style.xAxis, 'category', data.x, c.locale), boundaryGap: false };
  option.yAxis = axisOption(c.s.style.yAxis, 'value', undefined, c.locale, axisFormat(c));
  option.grid = gridFor(option.legend);
  const extent = valueExtent(data.series, stack);
  const room = plotRoom(c, option.grid, option.xAxis, false, extentLabels(extent, c, axisFormat(c)));
  fitValueAxis(option.yAxis, c.s.style.yAxis, extent, room?.height, true, c, axisFormat(c), { integer: wholeNumbers(data.series) });
  option.tooltip = tooltipOption(c.s, 'axis', tipValues(c));
  if (option.tooltip.axisPointer) option.tooltip.axisPointer = { type: 'line' };
  option.series = data.series.map((s, i) => ({
    type: 'line',
    name: s.name,
    stack: stack ? 'stack' : undefined,
    smooth: size.lineSmooth !== false,
    symbol: size.lineSymbol || 'circle',
    symbolSize: num(size.lineSymbolSize, 4),
    lineStyle: { width: num(size.lineWidth, DEFAULTS.lineWidth), type: size.lineType || 'solid' },
    areaStyle: stack || size.lineArea ? { opacity: stack ? 0.6 : 0.25, color: colorAt(c.colors, i) } : undefined,
    label: labelOption(c.s, 'top', shortOf(s, c.locale)),
    labelLayout: { hideOverlap: true },
    data: s.data.map((p) => item(p, c.threshold)),
  }));
  return option;
}

function nameValueItems(c: Ctx): Json[] {
  const s = c.data.series[0];
  if (!s) return [];
  const out: Json[] = [];
  s.data.forEach((p, i) => {
    if (!p) return;
    const it: Json = { name: c.data.x[i] ?? '', ...(item(p, c.threshold) || {}) };
    if (it.value !== null && it.value !== undefined) out.push(it);
  });
  return out;
}

/** The box a pie series lays itself and its labels out in: the card less a horizontal legend's strip. */
function pieBox(legend: Json): Json {
  const strip = legend.show && legend.orient !== 'vertical' ? 24 : 0;
  return { left: 0, right: 0, top: legend.top !== undefined && legend.top !== 'middle' ? strip : 0, bottom: legend.bottom !== undefined ? strip : 0 };
}

/** The least room between two pie labels (pixels). */
export const PIE_LABEL_MARGIN = 8;

function pieChart(c: Ctx, rose: boolean): Json {
  const size = sizeOf(c.s.attr);
  const items = nameValueItems(c);
  const option = base(c, items.map((x) => String(x.name)));
  const s = c.data.series[0];
  option.tooltip = tooltipOption(c.s, 'item', tipValues(c));
  const inner = num(size.pieInnerRadius, rose ? 10 : 0);
  const outer = num(size.pieOuterRadius, rose ? 80 : 70);
  const label = labelOf(c.s.attr);
  const short = shortOf(s, c.locale);
  option.series = [{
    type: 'pie',
    name: s?.name ?? '',
    radius: [`${inner}%`, `${outer}%`],
    // the pie and its labels in the card less the legend's strip: a label pushed down never lands on the legend
    ...pieBox(option.legend),
    center: ['50%', '50%'],
    roseType: rose ? size.pieRoseType || 'radius' : undefined,
    // labels move apart, a few pixels between any two (minMargin); any that would still come closer are hidden,
    // none leaves the card
    avoidLabelOverlap: true,
    labelLayout: { hideOverlap: true },
    itemStyle: rose ? { borderRadius: num(size.pieRoseRadius, 5) } : undefined,
    label: {
      show: label.show !== false,
      position: label.position === 'inside' ? 'inside' : 'outside',
      fontSize: fontSize(label.fontSize, 10),
      color: label.color,
      overflow: 'truncate',
      ellipsis: '…',
      minMargin: PIE_LABEL_MARGIN,
      alignTo: 'labelLine',
      bleedMargin: 4,
      formatter: (p: { name: string; value: number; percent: number }) =>
        `${p.name}\n${short(toNumber(p.value))} (${formatPercent(toNumber(p.percent) === null ? null : Number(p.percent) / 100, 1, c.locale)})`,
    },
    labelLine: { show: label.labelLine?.show !== false, length: 8, length2: 6 },
    data: items,
  }];
  return option;
}

function funnelChart(c: Ctx): Json {
  const size = sizeOf(c.s.attr);
  const items = nameValueItems(c).sort((a, b) => Number(b.value) - Number(a.value));
  const option = base(c, items.map((x) => String(x.name)));
  const s = c.data.series[0];
  option.tooltip = tooltipOption(c.s, 'item', tipValues(c));
  const width = num(size.funnelWidth, 80);
  const short = shortOf(s, c.locale);
  option.series = [{
    type: 'funnel',
    name: s?.name ?? '',
    left: `${(100 - width) / 2}%`,
    width: `${width}%`,
    top: 24,
    bottom: 36,
    sort: 'descending',
    gap: 2,
    label: { ...labelOption(c.s, 'inside'), overflow: 'truncate', formatter: (p: { name: string; value: unknown }) => `${p.name} ${short(toNumber(p.value))}` },
    labelLayout: { hideOverlap: true },
    data: items,
  }];
  if (labelOf(c.s.attr).show === undefined) option.series[0].label.show = true;
  return option;
}

function radarChart(c: Ctx): Json {
  const { data } = c;
  const size = sizeOf(c.s.attr);
  const names = data.series.map((s) => s.name);
  const option = base(c, names);
  option.tooltip = tooltipOption(c.s, 'item', tipValues(c));
  const max = Math.max(1, ...data.series.flatMap((s) => s.data.map((p) => pointValue(p) ?? 0)));
  const split = isObject(c.s.style.split) ? c.s.style.split : {};
  const legendBelow = option.legend.show && option.legend.bottom !== undefined;
  option.radar = {
    shape: size.radarShape || 'polygon',
    // the axis names sit outside the radius: 80 of the size setting is 60% of the card, room for them and the legend
    radius: `${Math.min(num(size.radarSize, 80), 100) * 0.75}%`,
    center: ['50%', legendBelow ? '46%' : '50%'],
    indicator: data.x.map((name) => ({ name, max: Math.ceil(max * 1.1) })),
    axisName: { ...textStyle(split.name, 12), width: CATEGORY_LABEL_WIDTH, overflow: 'truncate', ellipsis: '…' },
    nameGap: 6,
    splitNumber: num(split.splitNumber, 5),
  };
  option.series = [{
    type: 'radar',
    data: data.series.map((s, i) => ({
      name: s.name,
      value: s.data.map((p) => pointValue(p) ?? 0),
      lineStyle: { width: num(size.lineWidth, DEFAULTS.lineWidth), color: colorAt(c.colors, i) },
      itemStyle: { color: colorAt(c.colors, i) },
      areaStyle: size.radarArea ? { opacity: 0.2 } : undefined,
      // a radar click reaches the series; the first point's dimensions are as good as any
      dimensionList: s.data.find(Boolean)?.dimensionList || [],
      quotaList: s.data.find(Boolean)?.quotaList || [],
    })),
    label: labelOption(c.s, 'top', shortOf(data.series[0], c.locale)),
  }];
  return option;
}

/** Gauge colour stops from the threshold rules (between/lt/le/gt/ge over 0..max). */
export function gaugeStops(threshold: Threshold, min: number, max: number, fallback: string): [number, string][] {
  const stops: [number, string][] = [];
  const span = max - min || 1;
  const rules = threshold.ruleList
    .map((r) => {
      const vals = Array.isArray(r.values) ? r.values.map(Number) : [Number(r.max ?? r.value)];
      const upper = r.type === 'between' ? Math.max(...vals) : r.type === 'lt' || r.type === 'le' ? vals[0] : NaN;
      return { upper, color: r.color };
    })
    .filter((r) => Number.isFinite(r.upper))
    .sort((a, b) => a.upper - b.upper);
  for (const r of rules) stops.push([Math.min(1, Math.max(0, (r.upper - min) / span)), r.color]);
  if (!stops.length || stops[stops.length - 1][0] < 1) stops.push([1, fallback]);
  return stops;
}

/** The gauge's arc when the view doesn't set one: from 200 to -20 degrees. */
export const GAUGE_ANGLES = [200, -20] as const;

/**
 * Gauges take their maximum from the view (size.gaugeMax, 100 by default, spec 9). The plain gauge shows the
 * value in the quota's format (with units); the percentage gauge shows the value over the range as a percentage.
 */
function gaugeChart(c: Ctx, percentage: boolean): Json {
  const size = sizeOf(c.s.attr);
  const s = c.data.series[0];
  const raw = singleValue(c.data);
  const min = num(size.gaugeMin, 0);
  const max = num(size.gaugeMax, DEFAULTS.gaugeMax);
  const ratio = raw === null ? null : (raw - min) / (max - min || 1);
  const value = percentage ? (ratio === null ? null : Math.round(ratio * 10000) / 100) : raw;
  const vf = s?.property?.valueFormat;
  const decimals = formatDecimals(vf);
  const pct = (r: number | null) => formatPercent(r, decimals ?? 2, c.locale, decimals !== undefined);
  const color = c.colors[0];
  const stops = gaugeStops(c.threshold, percentage ? 0 : min, percentage ? 100 : max, color);
  const label = labelOf(c.s.attr);
  const first = s?.data.find(Boolean) || null;
  const short = shortOf(s, c.locale);
  return {
    color: c.colors,
    backgroundColor: 'transparent',
    tooltip: { ...tooltipOption(c.s, 'item'), formatter: () => escapeHtml(`${s?.name ?? ''}: ${fmtOf(s, c.locale)(raw)} (${pct(ratio)})`) },
    series: [{
      type: 'gauge',
      name: s?.name ?? '',
      min: percentage ? 0 : min,
      max: percentage ? 100 : max,
      // the scale's labels sit outside the ring; the arc's ends stay high enough for the value and the name
      // below the centre to keep clear of the end labels
      radius: '66%',
      center: ['50%', '50%'],
      splitNumber: 4,
      startAngle: num(size.gaugeStartAngle, GAUGE_ANGLES[0]),
      endAngle: num(size.gaugeEndAngle, GAUGE_ANGLES[1]),
      progress: { show: stops.length <= 1, width: 12, itemStyle: { color } },
      axisLine: { lineStyle: { width: 12, color: stops.length > 1 ? stops : [[1, withAlpha('#E6EBF8', 100)]] } },
      pointer: { show: true, width: 5, length: '60%' },
      axisTick: { show: false },
      splitLine: { distance: 2, length: 6, lineStyle: { width: 1.5, color: '#a7b0c2' } },
      axisLabel: {
        distance: -22,
        fontSize: 9,
        color: '#6b7489',
        formatter: (v: number) => (percentage ? formatPercent(v / 100, 0, c.locale) : compactNumber(v, c.locale, vf)),
      },
      title: { show: true, offsetCenter: [0, '112%'], fontSize: 12, overflow: 'truncate', width: 80 },
      detail: {
        valueAnimation: false,
        fontSize: fontSize(label.fontSize, 16),
        offsetCenter: [0, '80%'],
        formatter: (v: number) => (!Number.isFinite(v) || raw === null ? '-' : percentage ? pct(v / 100) : short(v)),
        color: label.color || 'inherit',
      },
      data: [{ value, name: s?.name ?? '', dimensionList: first?.dimensionList || [], quotaList: first?.quotaList || [] }],
    }],
  };
}

function scatterChart(c: Ctx): Json {
  const { data, view } = c;
  const size = sizeOf(c.s.attr);
  const names = data.series.map((s) => s.name);
  const option = base(c, names);
  option.xAxis = axisOption(c.s.style.xAxis, 'category', data.x, c.locale);
  option.yAxis = axisOption(c.s.style.yAxis, 'value', undefined, c.locale, axisFormat(c));
  option.grid = gridFor(option.legend);
  option.tooltip = tooltipOption(c.s, 'item', (v) => fmtOf(c.data.series[0], c.locale)(toNumber(v)));
  const hasBubble = (view.extBubble || []).length > 0;
  // bubble values by x label and series name from datas (popSize)
  const bubble = new Map<string, number>();
  for (const d of datas(data)) if (d.popSize !== undefined && d.popSize !== null) bubble.set(`${d.category}\u0000${d.field}`, Number(d.popSize));
  const maxBubble = Math.max(1, ...Array.from(bubble.values()).map((v) => Math.abs(v)));
  const values = data.series.flatMap((s) => s.data.map(pointValue)).filter((v): v is number => v !== null);
  const extent: [number, number] = values.length ? [Math.min(...values), Math.max(...values)] : [0, 1];
  const room = plotRoom(c, option.grid, option.xAxis, false, extentLabels(extent, c, axisFormat(c)));
  // bubbles at most 80 pixels across (30 on a phone) and a third of the card; once the plot's size is known, a third
  // of its height at most, and the first and last categories' bubbles no wider than their category, so that none
  // crosses the y axis (one scale for all: a bubble's size still says how large its value is)
  let scale = Math.min(c.build.mobile ? DEFAULTS.bubbleMobile : DEFAULTS.bubbleDesktop, Math.round(Math.min(c.build.height || Infinity, c.build.width || Infinity) / 3));
  let fixed = Math.min(DEFAULTS.symbolRange[1], Math.max(DEFAULTS.symbolRange[0], num(size.scatterSymbolSize, DEFAULTS.symbolSize)));
  if (room) {
    const band = room.width / Math.max(1, data.x.length) - 2;
    scale = Math.min(scale, room.height / 3);
    fixed = Math.max(DEFAULTS.symbolRange[0], Math.min(fixed, band, room.height / 3));
    const last = data.x.length - 1;
    const edge = Math.max(0, ...data.series.flatMap((s) => [0, last].map((i) => Math.abs(bubble.get(`${s.name}\u0000${data.x[i]}`) ?? 0))));
    if (hasBubble && edge > 0) scale = Math.min(scale, (band * maxBubble) / edge);
  }
  scale = Math.max(DEFAULTS.symbolRange[0], scale);
  option.series = data.series.map((s) => ({
    type: 'scatter',
    name: s.name,
    symbol: size.scatterSymbol || 'circle',
    label: labelOption(c.s, 'top', shortOf(s, c.locale)),
    labelLayout: { hideOverlap: true },
    data: s.data.map((p, i) => {
      const it = item(p, c.threshold);
      if (!it) return it;
      const pop = bubble.get(`${s.name}\u0000${data.x[i]}`);
      it.value = [data.x[i], it.value];
      it.symbolSize = hasBubble && pop !== undefined ? Math.max(DEFAULTS.symbolRange[0], (Math.abs(pop) / maxBubble) * scale) : fixed;
      if (pop !== undefined) it.popSize = pop;
      return it;
    }),
  }));
  // no bubble crosses an axis line or leaves the plot at the top. The value axis stays nice and keeps the x axis'
  // line at the plot's bottom (not at 0). Above, it reaches a bubble's radius past the highest; below, values from
  // 0 keep 0 as their bound and the x axis moves down by what the lowest bubbles reach under it, while values
  // below 0 get the same room as the top. Its ticks are counted in the height left once the x axis has moved.
  const points: [number, number][] = option.series.flatMap((x: Json) =>
    x.data.filter((d: Json | null) => d && d.value[1] !== null && Number.isFinite(Number(d.value[1]))).map((d: Json) => [Number(d.value[1]), Number(d.symbolSize) / 2 + 1]),
  );
  const positive = extent[0] >= 0;
  const reach = Math.max(0, ...points.map(([, r]) => r));
  const height = room ? room.height - (positive ? reach : 0) : undefined;
  const fits = height && height > 0 && points.length
    ? (span: number) => ({
        lo: positive ? 0 : Math.min(...points.map(([v, r]) => v - (r * span) / height)),
        hi: Math.max(...points.map(([v, r]) => v + (r * span) / height)),
      })
    : undefined;
  fitValueAxis(option.yAxis, c.s.style.yAxis, positive ? [0, extent[1]] : extent, height, true, c, axisFormat(c), { fits });
  option.xAxis.axisLine = { ...(option.xAxis.axisLine || {}), onZero: false };
  if (height && height > 0 && positive && Number.isFinite(option.yAxis.min) && option.yAxis.max > option.yAxis.min) {
    const { min, max } = option.yAxis;
    const below = Math.max(0, ...points.map(([v, r]) => r - ((v - min) * height) / (max - min)));
    if (below > 0) option.xAxis.offset = Math.ceil(below);
  }
  if (!room) {
    // the size not known yet: the plot area gives way by the largest bubble's radius
    const biggest = Math.max(0, ...option.series.flatMap((x: Json) => x.data.map((d: Json | null) => Number(d?.symbolSize) || 0)));
    const pad = Math.ceil(biggest / 2);
    option.grid = { ...option.grid, left: Math.max(option.grid.left, pad), right: Math.max(option.grid.right, pad), top: option.grid.top + pad, bottom: option.grid.bottom };
  }
  return option;
}

function treemapChart(c: Ctx): Json {
  const size = sizeOf(c.s.attr);
  const items = nameValueItems(c).map((x, i) => ({ ...x, itemStyle: { ...(x.itemStyle || {}), color: x.itemStyle?.color || colorAt(c.colors, i) } }));
  const s = c.data.series[0];
  return {
    color: c.colors,
    backgroundColor: 'transparent',
    tooltip: { ...tooltipOption(c.s, 'item'), formatter: (p: { name: string; value: number }) => escapeHtml(`${p.name}: ${fmtOf(s, c.locale)(p.value)}`) },
    series: [{
      type: 'treemap',
      name: s?.name ?? '',
      width: `${num(size.treemapWidth, 80)}%`,
      height: `${num(size.treemapHeight, 80)}%`,
      // centred in the card (echarts leaves room above for a breadcrumb the viewer doesn't show)
      left: 'center',
      top: 'middle',
      roam: false,
      nodeClick: false,
      breadcrumb: { show: false },
      label: {
        show: labelOf(c.s.attr).show !== false,
        fontSize: fontSize(labelOf(c.s.attr).fontSize, 12),
        overflow: 'truncate',
        // a block too small for both lines keeps what fits
        lineOverflow: 'truncate',
        formatter: (p: { name: string; value: unknown }) => `${p.name}\n${shortOf(s, c.locale)(toNumber(p.value))}`,
      },
      // a block's label keeps inside the block: lines that don't fit are cut, labels that touch hidden
      labelLayout: (p: { rect: { width: number; height: number } }) => ({
        hideOverlap: true,
        width: Math.max(0, p.rect.width - 4),
        height: Math.max(0, p.rect.height - 2),
      }),
      data: items,
    }],
  };
}

function mixChart(c: Ctx): Json {
  const { data, view } = c;
  const names = data.series.map((s) => s.name);
  const option = base(c, names);
  option.xAxis = axisOption(c.s.style.xAxis, 'category', data.x, c.locale);
  const hasExt = data.series.some((s) => s.property?.axis === 'yaxisExt');
  option.yAxis = [axisOption(c.s.style.yAxis, 'value', undefined, c.locale, axisFormat(c))];
  if (hasExt) option.yAxis.push({ ...axisOption(c.s.style.yAxisExt, 'value', undefined, c.locale, axisFormat(c, 'yaxisExt')), position: 'right', splitLine: { show: false } });
  // each axis over its own series, both as tall as the plot
  const sides = [data.series.filter((s) => !hasExt || s.property?.axis !== 'yaxisExt'), data.series.filter((s) => hasExt && s.property?.axis === 'yaxisExt')];
  const extents = sides.map((list) => valueExtent(list, false));
  const labels = extents.flatMap((e, i) => (i < option.yAxis.length ? extentLabels(e, c, axisFormat(c, i ? 'yaxisExt' : 'yaxis')) : []));
  // each quota in its own format
  option.tooltip = { ...option.tooltip, formatter: undefined, valueFormatter: undefined };
  const byName = new Map(data.series.map((s) => [s.name, s]));
  option.tooltip.formatter = (ps: Json[] | Json) => {
    const list = Array.isArray(ps) ? ps : [ps];
    const head = escapeHtml(String(list[0]?.name ?? ''));
    return [head, ...list.map((p) => `${p.marker ?? ''}${escapeHtml(String(p.seriesName))}: ${escapeHtml(fmtOf(byName.get(p.seriesName), c.locale)(toNumber(p.value)))}`)].join('<br/>');
  };
  option.grid = gridFor(option.legend);
  const room = plotRoom(c, option.grid, option.xAxis, false, labels);
  option.yAxis.forEach((axis: Json, i: number) =>
    fitValueAxis(axis, i ? c.s.style.yAxisExt : c.s.style.yAxis, extents[i], room?.height, true, c, axisFormat(c, i ? 'yaxisExt' : 'yaxis'), { integer: wholeNumbers(sides[i]) }),
  );
  const size = sizeOf(c.s.attr);
  const byId = new Map([...(view.yaxis || []), ...(view.yaxisExt || [])].map((a) => [a.id, a]));
  option.series = data.series.map((s) => {
    const ext = s.property?.axis === 'yaxisExt';
    const kind = s.property?.chartType || byId.get(s.property?.fieldId || '')?.chartType || (ext ? 'line' : 'bar');
    const common = {
      name: s.name,
      yAxisIndex: ext && hasExt ? 1 : 0,
      label: labelOption(c.s, 'top', shortOf(s, c.locale)),
      labelLayout: { hideOverlap: true },
      data: s.data.map((p) => item(p, c.threshold)),
    };
    if (kind === 'line') return { type: 'line', ...common, smooth: size.lineSmooth !== false, lineStyle: { width: num(size.lineWidth, DEFAULTS.lineWidth) } };
    if (kind === 'scatter') return { type: 'scatter', ...common, symbolSize: num(size.scatterSymbolSize, DEFAULTS.symbolSize) };
    return { type: 'bar', ...common, ...barSize(c) };
  });
  return option;
}

function mapChart(c: Ctx): Json {
  const items: Json[] = nameValueItems(c).map((x) => ({ ...x, name: String(x.name).split('\n').pop() }));
  const s = c.data.series[0];
  const values = items.map((x) => Number(x.value)).filter(Number.isFinite);
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  const label = labelOf(c.s.attr);
  return {
    color: c.colors,
    backgroundColor: 'transparent',
    tooltip: { ...tooltipOption(c.s, 'item'), formatter: (p: { name: string; value: number }) => escapeHtml(`${p.name}: ${fmtOf(s, c.locale)(Number.isFinite(p.value) ? p.value : null)}`) },
    visualMap: {
      show: isObject(c.s.style.legend) ? c.s.style.legend.show !== false : true,
      min,
      max: max === min ? min + 1 : max,
      left: 8,
      bottom: 8,
      calculable: true,
      itemHeight: 80,
      formatter: (v: number) => compactNumber(v, c.locale, s?.property?.valueFormat),
      inRange: { color: [withAlpha(c.colors[0], 20), c.colors[0]] },
      textStyle: { fontSize: 10 },
    },
    series: [{
      type: 'map',
      map: MAP_NAME,
      name: s?.name ?? '',
      roam: false,
      layoutCenter: ['50%', '55%'],
      layoutSize: '110%',
      label: { show: !!label.show, fontSize: fontSize(label.fontSize, 8), color: label.color },
      emphasis: { label: { show: true } },
      itemStyle: { areaColor: '#eef1f6', borderColor: '#999', borderWidth: 0.5 },
      data: items,
    }],
  };
}

/** The echarts option of a view (render echarts). */
/** A panel of a dozen views is read at once: the first draw shows the values instead of growing them for a
 * second; changes (filters, drill, linkage) still move smoothly. */
const FIRST_DRAW = { animationDuration: 0, animationDurationUpdate: 300 };

export function buildEchartsOption(view: ChartView, data: ChartData, build: BuildContext = {}): EchartsResult {
  const s = viewStyles(view, build.panelChart);
  const c: Ctx = { view, data: normalise(data), s, colors: palette(s.attr), threshold: viewThreshold(s), build, locale: build.locale };
  let option: Json;
  switch (view.type) {
    case 'bar': option = barChart(c, {}); break;
    case 'bar-stack': option = barChart(c, { stack: true }); break;
    case 'bar-horizontal': option = barChart(c, { horizontal: true }); break;
    case 'bar-stack-horizontal': option = barChart(c, { stack: true, horizontal: true }); break;
    case 'bar-contrast': option = barContrast(c); break;
    case 'line': option = lineChart(c, false); break;
    case 'line-stack': option = lineChart(c, true); break;
    case 'pie': option = pieChart(c, false); break;
    case 'pie-rose': option = pieChart(c, true); break;
    case 'funnel': option = funnelChart(c); break;
    case 'radar': option = radarChart(c); break;
    case 'gauge': option = gaugeChart(c, false); break;
    case 'gauge-percentage': option = gaugeChart(c, true); break;
    case 'scatter': option = scatterChart(c); break;
    case 'treemap': option = treemapChart(c); break;
    case 'chart-mix': option = mixChart(c); break;
    case 'map': option = mapChart(c); break;
    default: option = barChart(c, {});
  }
  Object.assign(option, FIRST_DRAW);
  const series = Array.isArray(option.series) ? option.series : [];
  // some series bring their own first-draw duration (pie: a second), which the option's does not override
  for (const one of series) if (one && one.animationDuration === undefined) one.animationDuration = FIRST_DRAW.animationDuration;
  const seriesCount = view.type === 'radar' ? (series[0]?.data?.length ?? 0) : series.length;
  return { option, seriesCount };
}

function normalise(data: ChartData): ChartData {
  return {
    ...data,
    x: Array.isArray(data?.x) ? data.x : [],
    // bubble sizes (extBubble) come with the points' popSize; they are not a series of their own
    series: Array.isArray(data?.series)
      ? data.series.filter((s) => s && s.property?.axis !== 'extBubble').map((s) => ({ ...s, data: Array.isArray(s.data) ? s.data : [] }))
      : [],
    datas: Array.isArray(data?.datas) ? data.datas : [],
    fields: Array.isArray(data?.fields) ? data.fields : [],
    tableRow: Array.isArray(data?.tableRow) ? data.tableRow : [],
  };
}
