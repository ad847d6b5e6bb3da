/**
 * From a view and its data to a g2plot plot name and options (spec 2.3, 9), one pure function per kind.
 * Records keep dimensionList and quotaList so a click knows what was clicked.
 */
import type { ChartData, ChartView, Datum } from '../model/types';
import {
  DEFAULTS, TICK_GAP, axisFormatter, axisSteps, colorAt, datas, fontSize, formatCompact, formatDecimals, formatPercent, formatValue, isObject,
  labelOf, niceScale, num, palette, pointValue, singleValue, sizeOf, textWidth, thresholdColor, tooltipOf, viewStyles, viewThreshold, type Json,
  type Styles, type Threshold,
} from './common';
import { CATEGORY_LABEL_WIDTH, compactNumber, GAUGE_ANGLES, PIE_LABEL_MARGIN, type BuildContext } from './echartsOptions';

export const ANTV_KINDS = [
  'bar', 'bar-stack', 'bar-horizontal', 'bar-stack-horizontal', 'line', 'line-stack', 'scatter', 'radar', 'gauge', 'pie',
  'pie-rose', 'funnel', 'treemap', 'liquid', 'waterfall', 'word-cloud',
] as const;
export type AntvKind = (typeof ANTV_KINDS)[number];

export type PlotName = 'Column' | 'Bar' | 'Line' | 'Area' | 'Scatter' | 'Radar' | 'Gauge' | 'Pie' | 'Rose' | 'Funnel' | 'Treemap' | 'Liquid' | 'Waterfall' | 'WordCloud';

export interface AntvResult {
  plot: PlotName;
  options: Json;
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

/** Records for g2plot: field (x label), value, category (series), and what a click needs. */
export function records(data: ChartData): Datum[] {
  const fromDatas = datas(data).filter((d) => d.value !== null && d.value !== undefined);
  if (fromDatas.length) return fromDatas.map((d) => ({ ...d, value: Number(d.value) }));
  const out: Datum[] = [];
  for (const s of data.series || []) {
    s.data.forEach((p, i) => {
      const v = pointValue(p);
      if (v === null) return;
      out.push({ field: data.x[i] ?? '', name: data.x[i] ?? '', value: v, category: s.name, dimensionList: p?.dimensionList, quotaList: p?.quotaList });
    });
  }
  return out;
}

function categories(rs: Datum[]): string[] {
  return Array.from(new Set(rs.map((r) => r.category)));
}

export function legendOf(s: Styles): Json | false {
  const legend = isObject(s.style.legend) ? s.style.legend : {};
  if (legend.show === false) return false;
  const h = legend.hPosition || 'center';
  const v = legend.vPosition || 'bottom';
  const position = v === 'center' ? (h === 'right' ? 'right' : 'left') : h === 'center' ? v : `${v}-${h === 'left' ? 'left' : 'right'}`;
  const vertical = legend.orient === 'vertical';
  return {
    position,
    layout: vertical ? 'vertical' : 'horizontal',
    itemName: { style: { fontSize: fontSize(legend.textStyle?.fontSize, 12), fill: legend.textStyle?.color } },
    // short items: a few names fit a small card without paging
    ...(vertical ? {} : { maxItemWidth: 90, itemSpacing: 6 }),
  };
}

function tooltipOfPlot(s: Styles, fmt?: (v: number | null) => string): Json | false {
  // numbers in tooltips in full, by the quota's format
  const tip = tooltipOf(s.attr);
  if (tip.show === false) return false;
  const out: Json = {};
  if (fmt) out.formatter = (d: Json) => ({ name: d.category ?? d.field ?? d.name, value: fmt(d.value ?? null) });
  return out;
}

function labelFor(s: Styles, position?: string, fmt?: (v: number | null) => string): Json | false {
  const label = labelOf(s.attr);
  if (!label.show) return false;
  const out: Json = { style: { fontSize: fontSize(label.fontSize, 10), fill: label.color } };
  if (position) out.position = position;
  if (fmt) out.formatter = (d: Json) => fmt(d.value ?? null);
  // a label that would touch another is hidden
  out.layout = [{ type: 'hide-overlap' }];
  return out;
}

/** The longest a category label is drawn (its full text in the tooltip): about CATEGORY_LABEL_WIDTH pixels. */
const CATEGORY_CHARS = Math.round(CATEGORY_LABEL_WIDTH / 8);

function ellipsis(text: string): string {
  const t = String(text ?? '');
  return t.length > CATEGORY_CHARS ? `${t.slice(0, CATEGORY_CHARS - 1)}…` : t;
}

/**
 * An axis from customStyle. Labels never overlap: those that would touch are hidden at even steps, long
 * category labels are cut with an ellipsis; a rotation from the settings is kept.
 */
function axisOf(conf: Json | undefined): Json | false {
  const a = isObject(conf) ? conf : {};
  if (a.show === false) return false;
  const label = isObject(a.axisLabel) ? a.axisLabel : {};
  const rotate = num(label.rotate, 0);
  const out: Json = {
    label: label.show === false ? null : {
      ...(rotate ? { rotate: (rotate * Math.PI) / 180 } : { autoRotate: false }),
      autoHide: { type: 'equidistance', cfg: { minGap: 6 } },
      autoEllipsis: false,
      formatter: ellipsis,
      style: { fontSize: fontSize(label.fontSize, 12), fill: label.color },
    },
    grid: isObject(a.splitLine) && a.splitLine.show === false ? null : undefined,
  };
  if (a.name) out.title = { text: a.name };
  const value = isObject(a.axisValue) ? a.axisValue : null;
  if (value && value.auto === false) {
    if (value.min !== undefined && value.min !== '') out.min = Number(value.min);
    if (value.max !== undefined && value.max !== '') out.max = Number(value.max);
  }
  return out;
}

/** The kinds whose options depend on the chart's size: value axes get as many ticks as they have room for, bubbles
 * keep clear of the axes. */
export const ANTV_SIZED_KINDS: ReadonlySet<string> = new Set([
  'bar', 'bar-stack', 'bar-horizontal', 'bar-stack-horizontal', 'line', 'line-stack', 'scatter', 'waterfall',
]);

/** The values a value axis must show, from 0: every record, or the sums of the stacks (by x label). */
export function recordExtent(rs: Datum[], stacked: boolean): [number, number] {
  let lo = 0;
  let hi = 0;
  const pos = new Map<string, number>();
  const neg = new Map<string, number>();
  for (const r of rs) {
    const v = Number(r.value);
    if (!Number.isFinite(v)) continue;
    if (!stacked) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      continue;
    }
    const k = String(r.field);
    const sums = v > 0 ? pos : neg;
    const sum = (sums.get(k) ?? 0) + v;
    sums.set(k, sum);
    lo = Math.min(lo, sum);
    hi = Math.max(hi, sum);
  }
  return [lo, hi];
}

function paddingOf(p: unknown): [number, number, number, number] {
  if (Array.isArray(p)) {
    const [t = 0, r = t, b = t, l = r] = p.map(Number);
    return [t, r, b, l];
  }
  const n = Number(p) || 0;
  return [n, n, n, n];
}

/**
 * The room (pixels) of a plot, never more than it gets: the card less the padding, the legend, the category labels
 * and the value labels. Unknown until the chart's size is.
 */
function plotRoom(c: Ctx, options: Json, horizontal: boolean, valueLabels: string[]): { height: number; width: number } | undefined {
  const { width, height } = c.build;
  if (!width || !height) return undefined;
  const [pt, pr, pb, pl] = paddingOf(options.appendPadding);
  const legend = options.legend ? String(options.legend.position || 'bottom') : '';
  const across = legend.startsWith('top') || legend.startsWith('bottom') ? 40 : 0;
  const beside = legend === 'left' || legend === 'right' ? 110 : 0;
  const catConf = isObject(c.s.style.xAxis) ? c.s.style.xAxis : {};
  const catLabel = isObject(catConf.axisLabel) ? catConf.axisLabel : {};
  const font = fontSize(catLabel.fontSize, 12);
  const shown = catConf.show !== false && catLabel.show !== false;
  const names = Array.from(new Set(records(c.data).map((r) => String(r.field ?? ''))));
  const longest = Math.min(CATEGORY_LABEL_WIDTH, Math.max(0, ...names.map((x) => textWidth(x, font))));
  const valueWidth = Math.max(0, ...valueLabels.map((x) => textWidth(x, 12)));
  if (!horizontal) {
    const rotate = (Math.abs(num(catLabel.rotate, 0)) * Math.PI) / 180;
    const under = shown ? (rotate ? Math.sin(rotate) * longest + font : font) + 14 : 0;
    return { height: height - pt - pb - across - under - 8, width: width - pl - pr - beside - valueWidth - 16 };
  }
  return { height: height - pt - pb - across - 12 - 14 - 8, width: width - pl - pr - beside - (shown ? longest + 12 : 0) - valueWidth / 2 - 8 };
}

/**
 * A value axis: as axisOf, its ticks apart and in one format. Once the room is known as many nice steps as it has
 * space for (a tick every TICK_GAP pixels at least when upright, a label's width and a gap across), its bounds and
 * step set; every tick in one number format chosen from the axis' largest bound (12.5M, 1250万; or 9,000 in full).
 * The editor's own bounds (axisValue.auto false) are kept. `fits` widens the range for an axis of a given span.
 */
function valueAxis(
  conf: Json | undefined,
  c: Ctx,
  extent: [number, number] = [0, 0],
  room?: number,
  vertical = true,
  opts: { integer?: boolean; fits?: (span: number) => { lo: number; hi: number } } = {},
): Json | false {
  const a = axisOf(conf);
  if (!a) return a;
  const vf = c.data.series[0]?.property?.valueFormat;
  const fixed = a.min !== undefined || a.max !== undefined;
  let step: number | undefined;
  let top = Math.max(Math.abs(extent[0]), Math.abs(extent[1]));
  if (!fixed && room !== undefined) {
    const rough = axisFormatter(top, undefined, vf, c.locale);
    const gap = vertical ? TICK_GAP : Math.max(40, Math.max(...extent.map((v) => textWidth(rough(v), 12))) + 20);
    const scale = niceScale(extent[0], extent[1], axisSteps(Math.max(0, room), gap), opts);
    Object.assign(a, { min: scale.min, max: scale.max, tickInterval: scale.interval, nice: false });
    step = scale.interval;
    top = Math.max(Math.abs(scale.min), Math.abs(scale.max));
  } else if (fixed) {
    top = Math.max(Math.abs(Number(a.min ?? extent[0]) || 0), Math.abs(Number(a.max ?? extent[1]) || 0));
  }
  const f = axisFormatter(top, step, vf, c.locale);
  if (a.label !== null) a.label = { ...(a.label || {}), formatter: (v: string) => f(Number(v)) };
  return a;
}

/** A value axis over `extent` (records from 0, or the stacks), fitted to the plot's room once known. */
function fittedAxis(c: Ctx, options: Json, conf: Json | undefined, extent: [number, number], horizontal: boolean, rs: Datum[]): Json | false {
  const vf = c.data.series[0]?.property?.valueFormat;
  const rough = axisFormatter(Math.max(Math.abs(extent[0]), Math.abs(extent[1])), undefined, vf, c.locale);
  const room = plotRoom(c, options, horizontal, [rough(extent[0]), rough(extent[1])]);
  const integer = rs.every((r) => Number.isInteger(Number(r.value)));
  return valueAxis(conf, c, extent, horizontal ? room?.width : room?.height, !horizontal, { integer });
}

/** The first quota's numbers in full (tooltips). */
function fmt(c: Ctx) {
  const vf = c.data.series[0]?.property?.valueFormat;
  return (v: number | null) => formatValue(v, vf || undefined, c.locale);
}

/** The first quota's numbers where room is short (labels): units from 10,000 on, the format's decimals. */
function short(c: Ctx) {
  const vf = c.data.series[0]?.property?.valueFormat;
  return (v: number | null) => formatCompact(v, vf || undefined, c.locale);
}

/** A colour callback that applies the threshold before the palette. */
function thresholdColorFn(c: Ctx, names: string[], key: 'category' | 'field') {
  if (!c.threshold.ruleList.length) return c.colors;
  return (d: Json) => thresholdColor(d.value, c.threshold) ?? colorAt(c.colors, Math.max(0, names.indexOf(String(d[key]))));
}

function column(c: Ctx, opts: { stack?: boolean; horizontal?: boolean }): AntvResult {
  const rs = records(c.data);
  const cats = categories(rs);
  const multi = cats.length > 1;
  const size = sizeOf(c.s.attr);
  const options: Json = {
    data: rs,
    xField: opts.horizontal ? 'value' : 'field',
    yField: opts.horizontal ? 'field' : 'value',
    seriesField: multi || opts.stack ? 'category' : undefined,
    isStack: !!opts.stack,
    isGroup: multi && !opts.stack,
    color: multi ? c.colors : (d: Json) => thresholdColor(d.value, c.threshold) ?? c.colors[0],
    legend: multi ? legendOf(c.s) : false,
    tooltip: tooltipOfPlot(c.s, fmt(c)),
    label: labelFor(c.s, opts.stack ? 'middle' : undefined, short(c)),
  };
  const value = fittedAxis(c, options, c.s.style.yAxis, recordExtent(rs, !!opts.stack), !!opts.horizontal, rs);
  options.xAxis = opts.horizontal ? value : axisOf(c.s.style.xAxis);
  options.yAxis = opts.horizontal ? axisOf(c.s.style.xAxis) : value;
  const width = size.barDefault === false && size.barWidth ? num(size.barWidth, DEFAULTS.barWidth) : DEFAULTS.barWidth;
  if (opts.horizontal) options.maxBarWidth = width;
  else options.maxColumnWidth = width;
  return { plot: opts.horizontal ? 'Bar' : 'Column', options, seriesCount: Math.max(1, cats.length) };
}

function line(c: Ctx, stack: boolean): AntvResult {
  const rs = records(c.data);
  const cats = categories(rs);
  const size = sizeOf(c.s.attr);
  const options: Json = {
    data: rs,
    xField: 'field',
    yField: 'value',
    seriesField: 'category',
    isStack: stack,
    smooth: size.lineSmooth !== false,
    color: c.colors,
    lineStyle: { lineWidth: num(size.lineWidth, DEFAULTS.lineWidth) },
    point: { size: num(size.lineSymbolSize, 4), shape: size.lineSymbol || 'circle' },
    legend: legendOf(c.s),
    tooltip: tooltipOfPlot(c.s, fmt(c)),
    label: labelFor(c.s, undefined, short(c)),
    xAxis: axisOf(c.s.style.xAxis),
  };
  if (stack) options.areaStyle = { fillOpacity: 0.6 };
  // the first and last x labels sit on the plot's edges: room for half of each
  options.appendPadding = [4, 20, 0, 4];
  options.yAxis = fittedAxis(c, options, c.s.style.yAxis, recordExtent(rs, stack), false, rs);
  return { plot: stack ? 'Area' : 'Line', options, seriesCount: Math.max(1, cats.length) };
}

function scatter(c: Ctx): AntvResult {
  const rs = records(c.data);
  const cats = categories(rs);
  const size = sizeOf(c.s.attr);
  const bubble = (c.view.extBubble || []).length > 0 && rs.some((r) => r.popSize !== undefined && r.popSize !== null);
  const symbol = Math.min(DEFAULTS.symbolRange[1], Math.max(DEFAULTS.symbolRange[0], num(size.scatterSymbolSize, DEFAULTS.symbolSize)));
  const options: Json = {
    data: rs.map((r) => ({ ...r, popSize: r.popSize === null || r.popSize === undefined ? undefined : Number(r.popSize) })),
    xField: 'field',
    yField: 'value',
    colorField: 'category',
    color: c.colors,
    shape: size.scatterSymbol || 'circle',
    size: bubble ? DEFAULTS.symbolRange : symbol,
    sizeField: bubble ? 'popSize' : undefined,
    pointStyle: { fillOpacity: 0.8 },
    legend: cats.length > 1 ? legendOf(c.s) : false,
    tooltip: tooltipOfPlot(c.s, fmt(c)),
    label: labelFor(c.s, undefined, short(c)),
    appendPadding: 4,
  };
  const values = rs.map((r) => Number(r.value)).filter(Number.isFinite);
  const extent: [number, number] = values.length ? [Math.min(...values), Math.max(...values)] : [0, 1];
  const vf = c.data.series[0]?.property?.valueFormat;
  const rough = axisFormatter(Math.max(Math.abs(extent[0]), Math.abs(extent[1])), undefined, vf, c.locale);
  const room = plotRoom(c, options, false, [rough(extent[0]), rough(extent[1])]);
  // a point's size is its radius: bubbles from 5 to 30 (spec 9), a sixth of the plot's height at most once its size
  // is known: the size scale then reaches past the largest value, one scale for all
  const [least, most] = DEFAULTS.symbolRange;
  let radius = bubble ? most : symbol;
  if (room && room.height > 0) radius = Math.max(least, Math.min(radius, room.height / 6));
  if (bubble) {
    const pops = rs.map((r) => Math.abs(Number(r.popSize))).filter(Number.isFinite);
    const top = Math.max(1, ...pops);
    const share = (radius - least) / (most - least);
    options.meta = { popSize: { min: 0, max: share > 0 ? top / share : top * 1e6, nice: false } };
  } else {
    options.size = radius;
  }
  // the largest radius and a pixel keep clear of both axes: the value axis leaves it above and below every point,
  // the first and last categories sit that far in from the plot's sides
  radius += 1;
  const xConf = axisOf(c.s.style.xAxis);
  const x: Json = { type: 'cat', ...(xConf || {}) };
  const names = Array.from(new Set(rs.map((r) => String(r.field ?? ''))));
  if (room && room.width > 0) {
    const inset = Math.min(0.5, Math.max(1 / (2 * Math.max(1, names.length)), radius / room.width));
    x.range = [inset, 1 - inset];
  }
  options.xAxis = xConf === false ? false : x;
  // the value axis from 0 (or below), its ticks in the height between those two radii, which it leaves free
  const bounds: [number, number] = [Math.min(0, extent[0]), Math.max(0, extent[1])];
  const y = valueAxis(c.s.style.yAxis, c, bounds, room ? room.height - 2 * radius : undefined, true);
  if (y && room && room.height > 2 * radius) y.range = [radius / room.height, 1 - radius / room.height];
  options.yAxis = y;
  return { plot: 'Scatter', options, seriesCount: Math.max(1, cats.length) };
}

function radar(c: Ctx): AntvResult {
  const rs = records(c.data);
  const cats = categories(rs);
  const size = sizeOf(c.s.attr);
  return {
    plot: 'Radar',
    options: {
      data: rs,
      xField: 'field',
      yField: 'value',
      seriesField: 'category',
      color: c.colors,
      radius: (Math.min(num(size.radarSize, 80), 100) * 0.9) / 100,
      lineStyle: { lineWidth: num(size.lineWidth, DEFAULTS.lineWidth) },
      point: { size: 3 },
      area: size.radarArea ? {} : undefined,
      xAxis: { line: null, tickLine: null, grid: { line: { style: { lineDash: null } } }, label: { formatter: ellipsis, offset: 8 } },
      yAxis: {
        line: null,
        tickLine: null,
        grid: { line: { type: size.radarShape === 'circle' ? 'circle' : 'line' } },
        // no values along a spoke: they would cross the name at its end (the tooltip has them)
        label: null,
      },
      legend: legendOf(c.s),
      tooltip: tooltipOfPlot(c.s, fmt(c)),
      appendPadding: 8,
    },
    seriesCount: Math.max(1, cats.length),
  };
}

function gauge(c: Ctx): AntvResult {
  const size = sizeOf(c.s.attr);
  const min = num(size.gaugeMin, 0);
  const max = num(size.gaugeMax, DEFAULTS.gaugeMax);
  const value = singleValue(c.data);
  const percent = value === null ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min || 1)));
  const rules = c.threshold.ruleList
    .map((r) => ({ upper: Number(Array.isArray(r.values) ? Math.max(...r.values.map(Number)) : r.max ?? r.value), color: r.color }))
    .filter((r) => Number.isFinite(r.upper))
    .sort((a, b) => a.upper - b.upper);
  const ticks = [0, ...rules.map((r) => Math.min(1, Math.max(0, (r.upper - min) / (max - min || 1)))), 1];
  const range = rules.length ? { ticks, color: [...rules.map((r) => r.color), c.colors[0]] } : { color: c.colors[0] };
  const f = short(c);
  const vf = c.data.series[0]?.property?.valueFormat;
  return {
    plot: 'Gauge',
    options: {
      percent,
      // the scale's labels outside the ring; the value and the name below the pin, in room kept under the arc
      radius: 0.7,
      innerRadius: 0.92,
      appendPadding: [8, 0, 64, 0],
      startAngle: (num(size.gaugeStartAngle, GAUGE_ANGLES[0]) * -Math.PI) / 180 + Math.PI * 2,
      endAngle: (num(size.gaugeEndAngle, GAUGE_ANGLES[1]) * -Math.PI) / 180 + Math.PI * 2,
      range,
      indicator: { pointer: { style: { stroke: '#aaa' } }, pin: { style: { stroke: '#aaa' } } },
      meta: { percent: { sync: 'v', tickCount: 5, tickInterval: 0.25 } },
      axis: {
        label: { offset: 16, formatter: (v: string) => compactNumber(min + Number(v) * (max - min), c.locale, vf), style: { fontSize: 9, fill: '#6b7489' } },
        tickLine: { length: -8 },
        subTickLine: { count: 0 },
      },
      statistic: {
        title: { content: c.data.series[0]?.name ?? '', style: { fontSize: '12px', color: '#6b7489' }, offsetY: 56 },
        content: { content: f(value), style: { fontSize: `${fontSize(labelOf(c.s.attr).fontSize, 16)}px`, color: '#1f2a44' }, offsetY: 30 },
      },
      max,
    },
    seriesCount: 1,
  };
}

function pie(c: Ctx, rose: boolean): AntvResult {
  const rs = records(c.data).filter((r) => r.category === (c.data.series[0]?.name ?? r.category));
  const size = sizeOf(c.s.attr);
  const label = labelOf(c.s.attr);
  const names = rs.map((r) => r.field);
  const common: Json = {
    data: rs,
    // room around the pie for the outer labels
    radius: (num(size.pieOuterRadius, 80) * 0.85) / 100,
    appendPadding: [16, 8, 8, 8],
    innerRadius: num(size.pieInnerRadius, 0) / 100,
    legend: legendOf(c.s),
    tooltip: tooltipOfPlot(c.s, fmt(c)),
    color: thresholdColorFn(c, names, 'field'),
    label: label.show === false ? false : pieLabel(c, rs, rose),
  };
  if (rose) {
    return { plot: 'Rose', options: { ...common, xField: 'field', yField: 'value', seriesField: 'field', sectorStyle: { radius: num(size.pieRoseRadius, 5) } }, seriesCount: 1 };
  }
  return { plot: 'Pie', options: { ...common, angleField: 'value', colorField: 'field' }, seriesCount: 1 };
}

/** Pie and rose labels: name, value with units and share; moved apart, kept in the plot, hidden if they still touch. */
function pieLabel(c: Ctx, rs: Datum[], rose: boolean): Json {
  const label = labelOf(c.s.attr);
  const total = rs.reduce((sum, r) => sum + Math.abs(Number(r.value) || 0), 0) || 1;
  const sh = short(c);
  return {
    type: rose ? undefined : 'outer',
    offset: rose ? undefined : 12,
    // upright: a rose's labels turned along their petals take more room than they show
    autoRotate: false,
    style: { fontSize: fontSize(label.fontSize, 10) },
    // hide-overlap measures each label with this padding: two labels closer than PIE_LABEL_MARGIN count as touching
    background: { padding: PIE_LABEL_MARGIN / 2 },
    content: (d: Json) => `${ellipsis(String(d.field ?? ''))}\n${sh(Number(d.value))} (${formatPercent(Math.abs(Number(d.value) || 0) / total, 1, c.locale)})`,
    // the pie plot puts its own outer layout first
    layout: [{ type: 'limit-in-plot', cfg: { action: 'ellipsis' } }, { type: 'hide-overlap' }],
  };
}

function funnel(c: Ctx): AntvResult {
  const rs = records(c.data).sort((a, b) => Number(b.value) - Number(a.value));
  return {
    plot: 'Funnel',
    options: {
      data: rs,
      xField: 'field',
      yField: 'value',
      color: c.colors,
      legend: legendOf(c.s),
      tooltip: tooltipOfPlot(c.s, fmt(c)),
      conversionTag: false,
      label: labelOf(c.s.attr).show === false ? false : {
        // dark text with a light halo: readable on a wide stage and beside a narrow one
        style: { fontSize: fontSize(labelOf(c.s.attr).fontSize, 12), fill: '#1f2a44', stroke: '#fff', lineWidth: 2 },
        formatter: (d: Json) => `${ellipsis(String(d.field ?? ''))} ${short(c)(Number(d.value))}`,
        layout: [{ type: 'hide-overlap' }],
      },
    },
    seriesCount: 1,
  };
}

function treemap(c: Ctx): AntvResult {
  const rs = records(c.data);
  return {
    plot: 'Treemap',
    options: {
      data: { name: 'root', children: rs.map((r) => ({ ...r, name: r.field, value: Number(r.value) })) },
      colorField: 'name',
      color: c.colors,
      legend: false,
      tooltip: tooltipOfPlot(c.s, fmt(c)),
      label: labelOf(c.s.attr).show === false ? false : {
        fields: ['name', 'value'],
        style: { fontSize: fontSize(labelOf(c.s.attr).fontSize, 12) },
        formatter: (d: Json) => `${d.name}\n${short(c)(Number(d.value))}`,
        layout: [{ type: 'limit-in-shape' }, { type: 'hide-overlap' }],
      },
    },
    seriesCount: 1,
  };
}

function liquid(c: Ctx): AntvResult {
  const size = sizeOf(c.s.attr);
  const max = num(size.liquidMax, DEFAULTS.liquidMax);
  const value = singleValue(c.data);
  const percent = value === null ? 0 : Math.max(0, value / (max || 1));
  const decimals = formatDecimals(c.data.series[0]?.property?.valueFormat);
  const color = thresholdColor(value, c.threshold) ?? c.colors[0];
  return {
    plot: 'Liquid',
    options: {
      percent,
      radius: num(size.liquidSize, DEFAULTS.liquidSize) / 100,
      shape: size.liquidShape || 'circle',
      color,
      outline: { border: num(size.liquidOutlineBorder, 4), distance: num(size.liquidOutlineDistance, 8) },
      wave: { length: num(size.liquidWaveLength, 128), count: num(size.liquidWaveCount, 3) },
      statistic: {
        title: { content: c.data.series[0]?.name ?? '', style: { fontSize: '12px', color: '#6b7489' } },
        content: {
          style: { fontSize: `${fontSize(labelOf(c.s.attr).fontSize, 16)}px` },
          // the value over the view's maximum, as a percentage
          formatter: () => formatPercent(percent, decimals ?? 2, c.locale, decimals !== undefined),
        },
      },
    },
    seriesCount: 1,
  };
}

function waterfall(c: Ctx): AntvResult {
  const rs = records(c.data).filter((r) => r.category === (c.data.series[0]?.name ?? r.category));
  const size = sizeOf(c.s.attr);
  const options: Json = {
    data: rs,
    xField: 'field',
    yField: 'value',
    risingFill: c.colors[0],
    fallingFill: c.colors[3 % c.colors.length],
    total: { label: '∑', style: { fill: c.colors[2 % c.colors.length] } },
    columnWidthRatio: 0.6,
    maxColumnWidth: size.barDefault === false && size.barWidth ? num(size.barWidth, DEFAULTS.barWidth) : DEFAULTS.barWidth,
    legend: false,
    tooltip: tooltipOfPlot(c.s, fmt(c)),
    label: labelFor(c.s, undefined, short(c)),
    xAxis: axisOf(c.s.style.xAxis),
  };
  // the value axis from 0 over every running total (the last column is the total itself)
  let run = 0;
  const runs = rs.map((r) => (run += Number(r.value) || 0));
  options.yAxis = fittedAxis(c, options, c.s.style.yAxis, [Math.min(0, ...runs), Math.max(0, ...runs)], false, rs);
  return { plot: 'Waterfall', options, seriesCount: 1 };
}

function wordCloud(c: Ctx): AntvResult {
  const rs = records(c.data).filter((r) => r.category === (c.data.series[0]?.name ?? r.category));
  const size = sizeOf(c.s.attr);
  const range = Array.isArray(size.wordSizeRange) && size.wordSizeRange.length === 2 ? size.wordSizeRange.map(Number) : DEFAULTS.wordSize;
  return {
    plot: 'WordCloud',
    options: {
      data: rs,
      wordField: 'field',
      weightField: 'value',
      colorField: 'field',
      color: c.colors,
      random: () => 0.5,
      wordStyle: { fontSize: range, padding: num(size.wordSpacing, DEFAULTS.wordPadding), rotation: 0, fontFamily: 'sans-serif' },
      tooltip: tooltipOfPlot(c.s, fmt(c)),
      legend: false,
    },
    seriesCount: 1,
  };
}

/** The g2plot plot and options of a view (render antv). */
export function buildAntvOptions(view: ChartView, data: ChartData, build: BuildContext = {}): AntvResult {
  const s = viewStyles(view, build.panelChart);
  const d: ChartData = {
    ...data,
    x: Array.isArray(data?.x) ? data.x : [],
    series: Array.isArray(data?.series)
      ? data.series.filter((x) => x && x.property?.axis !== 'extBubble').map((x) => ({ ...x, data: Array.isArray(x.data) ? x.data : [] }))
      : [],
    datas: Array.isArray(data?.datas) ? data.datas : [],
    fields: Array.isArray(data?.fields) ? data.fields : [],
    tableRow: Array.isArray(data?.tableRow) ? data.tableRow : [],
  };
  const c: Ctx = { view, data: d, s, colors: palette(s.attr), threshold: viewThreshold(s), build, locale: build.locale };
  switch (view.type) {
    case 'bar': return column(c, {});
    case 'bar-stack': return column(c, { stack: true });
    case 'bar-horizontal': return column(c, { horizontal: true });
    case 'bar-stack-horizontal': return column(c, { stack: true, horizontal: true });
    case 'line': return line(c, false);
    case 'line-stack': return line(c, true);
    case 'scatter': return scatter(c);
    case 'radar': return radar(c);
    case 'gauge': return gauge(c);
    case 'pie': return pie(c, false);
    case 'pie-rose': return pie(c, true);
    case 'funnel': return funnel(c);
    case 'treemap': return treemap(c);
    case 'liquid': return liquid(c);
    case 'waterfall': return waterfall(c);
    case 'word-cloud': return wordCloud(c);
    default: return column(c, {});
  }
}
