/**
 * From a view and its data to a g2plot plot name and options (spec 2.3, 9), one pure function per kind.
 * Records keep dimensionList and quotaList so a click knows what was clicked.
 */
import type { ChartData, ChartView, Datum } from '../model/types';
import {
  DEFAULTS, colorAt, datas, fontSize, formatCompact, formatDecimals, formatPercent, formatValue, isObject, labelOf, num, palette,
  pointValue, singleValue, sizeOf, thresholdColor, tooltipOf, viewStyles, viewThreshold, type Json, type Styles, type Threshold,
} from './common';
import { CATEGORY_LABEL_WIDTH, compactNumber, GAUGE_ANGLES, type BuildContext } from './echartsOptions';

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

/** A value axis: as axisOf, with units (12.5M, 1250万) in the quota's format. */
function valueAxis(conf: Json | undefined, c?: Ctx): Json | false {
  const a = axisOf(conf);
  if (!a) return a;
  const vf = c?.data.series[0]?.property?.valueFormat;
  if (a.label !== null) a.label = { ...(a.label || {}), formatter: (v: string) => compactNumber(Number(v), c?.locale, vf) };
  return a;
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
    xAxis: opts.horizontal ? valueAxis(c.s.style.yAxis, c) : axisOf(c.s.style.xAxis),
    yAxis: opts.horizontal ? axisOf(c.s.style.xAxis) : valueAxis(c.s.style.yAxis, c),
  };
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
    yAxis: valueAxis(c.s.style.yAxis, c),
  };
  if (stack) options.areaStyle = { fillOpacity: 0.6 };
  // the first and last x labels sit on the plot's edges: room for half of each
  options.appendPadding = [4, 20, 0, 4];
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
    xAxis: { type: 'cat', ...(axisOf(c.s.style.xAxis) || {}) },
    yAxis: { ...(valueAxis(c.s.style.yAxis, c) || {}), nice: true },
    // the largest bubble (its size is a radius) keeps inside the card
    appendPadding: bubble ? DEFAULTS.symbolRange[1] : symbol,
  };
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
    style: { fontSize: fontSize(label.fontSize, 10) },
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
  return {
    plot: 'Waterfall',
    options: {
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
      yAxis: valueAxis(c.s.style.yAxis, c),
    },
    seriesCount: 1,
  };
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
