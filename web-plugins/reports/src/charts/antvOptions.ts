/**
 * From a view and its data to a g2plot plot name and options (spec 2.3, 9), one pure function per kind.
 * Records keep dimensionList and quotaList so a click knows what was clicked.
 */
import type { ChartData, ChartView, Datum } from '../model/types';
import {
  DEFAULTS, colorAt, datas, fontSize, formatValue, isObject, labelOf, num, palette, pointValue, singleValue, sizeOf,
  thresholdColor, tooltipOf, viewStyles, viewThreshold, type Json, type Styles, type Threshold,
} from './common';
import { compactNumber, type BuildContext } from './echartsOptions';

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
  return { position, layout: legend.orient === 'vertical' ? 'vertical' : 'horizontal', itemName: { style: { fontSize: fontSize(legend.textStyle?.fontSize, 12), fill: legend.textStyle?.color } } };
}

function tooltipOfPlot(s: Styles, fmt?: (v: number | null) => string): Json | false {
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
  return out;
}

function axisOf(conf: Json | undefined): Json | false {
  const a = isObject(conf) ? conf : {};
  if (a.show === false) return false;
  const label = isObject(a.axisLabel) ? a.axisLabel : {};
  const out: Json = {
    label: label.show === false ? null : { rotate: (num(label.rotate, 0) * Math.PI) / 180, style: { fontSize: fontSize(label.fontSize, 12), fill: label.color } },
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

/** A value axis: as axisOf, with compact numbers (12.5M). */
function valueAxis(conf: Json | undefined): Json | false {
  const a = axisOf(conf);
  if (!a) return a;
  if (a.label !== null) a.label = { ...(a.label || {}), formatter: (v: string) => compactNumber(Number(v)) };
  return a;
}

function fmt(c: Ctx) {
  const vf = c.data.series[0]?.property?.valueFormat;
  return (v: number | null) => formatValue(v, vf || undefined);
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
    tooltip: tooltipOfPlot(c.s),
    label: labelFor(c.s, opts.stack ? 'middle' : undefined, fmt(c)),
    xAxis: opts.horizontal ? valueAxis(c.s.style.yAxis) : axisOf(c.s.style.xAxis),
    yAxis: opts.horizontal ? axisOf(c.s.style.xAxis) : valueAxis(c.s.style.yAxis),
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
    tooltip: tooltipOfPlot(c.s),
    label: labelFor(c.s, undefined, fmt(c)),
    xAxis: axisOf(c.s.style.xAxis),
    yAxis: valueAxis(c.s.style.yAxis),
  };
  if (stack) options.areaStyle = { fillOpacity: 0.6 };
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
    tooltip: tooltipOfPlot(c.s),
    label: labelFor(c.s, undefined, fmt(c)),
    xAxis: { type: 'cat', ...(axisOf(c.s.style.xAxis) || {}) },
    yAxis: valueAxis(c.s.style.yAxis),
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
      radius: num(size.radarSize, 80) / 100,
      lineStyle: { lineWidth: num(size.lineWidth, DEFAULTS.lineWidth) },
      point: { size: 3 },
      area: size.radarArea ? {} : undefined,
      xAxis: { line: null, tickLine: null, grid: { line: { style: { lineDash: null } } } },
      yAxis: { line: null, tickLine: null, grid: { line: { type: size.radarShape === 'circle' ? 'circle' : 'line' } } },
      legend: legendOf(c.s),
      tooltip: tooltipOfPlot(c.s),
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
  const f = fmt(c);
  return {
    plot: 'Gauge',
    options: {
      percent,
      radius: 0.85,
      innerRadius: 0.85,
      startAngle: (num(size.gaugeStartAngle, 225) * -Math.PI) / 180 + Math.PI * 2,
      endAngle: (num(size.gaugeEndAngle, -45) * -Math.PI) / 180 + Math.PI * 2,
      range,
      indicator: { pointer: { style: { stroke: '#aaa' } }, pin: { style: { stroke: '#aaa' } } },
      axis: { label: { formatter: (v: string) => formatValue(min + Number(v) * (max - min)) } },
      statistic: {
        title: { content: c.data.series[0]?.name ?? '', style: { fontSize: '12px' }, offsetY: 20 },
        content: { content: f(value), style: { fontSize: `${fontSize(labelOf(c.s.attr).fontSize, 16)}px` }, offsetY: -10 },
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
    radius: num(size.pieOuterRadius, 80) / 100,
    innerRadius: num(size.pieInnerRadius, 0) / 100,
    legend: legendOf(c.s),
    tooltip: tooltipOfPlot(c.s),
    color: thresholdColorFn(c, names, 'field'),
    label: label.show === false ? false : { type: rose ? undefined : 'outer', style: { fontSize: fontSize(label.fontSize, 10) } },
  };
  if (rose) {
    return { plot: 'Rose', options: { ...common, xField: 'field', yField: 'value', seriesField: 'field', sectorStyle: { radius: num(size.pieRoseRadius, 5) } }, seriesCount: 1 };
  }
  return { plot: 'Pie', options: { ...common, angleField: 'value', colorField: 'field' }, seriesCount: 1 };
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
      tooltip: tooltipOfPlot(c.s),
      conversionTag: false,
      label: labelOf(c.s.attr).show === false ? false : { style: { fontSize: fontSize(labelOf(c.s.attr).fontSize, 12) } },
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
      tooltip: tooltipOfPlot(c.s),
      label: labelOf(c.s.attr).show === false ? false : { style: { fontSize: fontSize(labelOf(c.s.attr).fontSize, 12) } },
    },
    seriesCount: 1,
  };
}

function liquid(c: Ctx): AntvResult {
  const size = sizeOf(c.s.attr);
  const max = num(size.liquidMax, DEFAULTS.liquidMax);
  const value = singleValue(c.data);
  const percent = value === null ? 0 : Math.max(0, value / (max || 1));
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
      statistic: { content: { style: { fontSize: `${fontSize(labelOf(c.s.attr).fontSize, 16)}px` } } },
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
      tooltip: tooltipOfPlot(c.s),
      label: labelFor(c.s, undefined, fmt(c)),
      xAxis: axisOf(c.s.style.xAxis),
      yAxis: valueAxis(c.s.style.yAxis),
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
      tooltip: tooltipOfPlot(c.s),
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
  const c: Ctx = { view, data: d, s, colors: palette(s.attr), threshold: viewThreshold(s), build };
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
