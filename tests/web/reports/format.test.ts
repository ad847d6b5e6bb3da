import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCompact, formatPercent, formatValue, intlLocale } from '../../../web-plugins/reports/src/charts/common';
import { buildEchartsOption, CATEGORY_LABEL_WIDTH } from '../../../web-plugins/reports/src/charts/echartsOptions';
import { buildAntvOptions } from '../../../web-plugins/reports/src/charts/antvOptions';
import { FIELD, REGIONS, grouped, single, view } from './fixtures';

const attr = (o: object) => JSON.stringify(o);
const NUMBER2 = { formatType: 'number', decimalNumber: 2 };

/** The demo's profit: a large float, measured against 20 million. */
function profit(format: object | null = NUMBER2) {
  const data = single(11200540.2567, 'Profit');
  data.series[0].property!.valueFormat = format as any;
  return data;
}

const TARGET = attr({ size: { gaugeMax: 20000000, liquidMax: 20000000 } });

test('interface locales become Intl locales', () => {
  assert.equal(intlLocale('zh-cn'), 'zh-CN');
  assert.equal(intlLocale('zh#tw'), 'zh-TW');
  assert.equal(intlLocale('en-us'), 'en-US');
  assert.equal(intlLocale(undefined), 'en-US');
});

test('full numbers: the value format and the locale separators', () => {
  assert.equal(formatValue(11200540.2567, NUMBER2, 'en-us'), '11,200,540.26');
  assert.equal(formatValue(11200540.2567, NUMBER2, 'zh-cn'), '11,200,540.26');
  assert.equal(formatValue(11200540.2567, NUMBER2, 'vi-vn'), '11.200.540,26');
  assert.equal(formatValue(0.1234, { formatType: 'percent', decimalNumber: 1 }, 'en-us'), '12.3%');
  assert.equal(formatValue(12345.678901, null, 'en-us'), '12,345.68');
  assert.equal(formatValue(1200, { formatType: 'number', decimalNumber: 0, thousandSeparator: false }), '1200');
  assert.equal(formatValue(null), '-');
});

test('units: 万/亿 in Chinese, K/M/B otherwise, with the format decimals; small numbers in full', () => {
  assert.equal(formatCompact(11200540.2567, NUMBER2, 'zh-cn'), '1120.05万');
  assert.equal(formatCompact(123456789, null, 'zh-cn'), '1.2亿');
  assert.equal(formatCompact(11200540.2567, NUMBER2, 'en-us'), '11.20M');
  assert.equal(formatCompact(11200540.2567, null, 'en-us'), '11.2M');
  assert.equal(formatCompact(2.5e9, null, 'en-us'), '2.5B');
  assert.equal(formatCompact(1234.5, NUMBER2, 'en-us'), '1,234.50');
  // axis ticks drop the trailing zeros
  assert.equal(formatCompact(20000000, NUMBER2, 'zh-cn', true), '2000万');
  assert.equal(formatCompact(20000000, NUMBER2, 'en-us', true), '20M');
  assert.equal(formatPercent(0.56002, 2, 'en-us', true), '56.00%');
  assert.equal(formatPercent(0.5, 2, 'en-us'), '50%');
});

test('echarts axes: units by locale; category labels thinned, never overlapping, cut with the full text in a tooltip', () => {
  const data = grouped(REGIONS, [{ name: 'Amount', id: FIELD.amount, values: [12500000, 3, 2, 1] }]);
  const zh = buildEchartsOption(view('bar', 'echarts'), data, { locale: 'zh-cn' }).option;
  assert.equal(zh.yAxis.axisLabel.formatter(12500000), '1250万');
  assert.equal(zh.yAxis.axisLabel.hideOverlap, true);
  const x = zh.xAxis.axisLabel;
  assert.equal(x.hideOverlap, true);
  assert.equal(x.interval, 'auto');
  assert.equal(x.width, CATEGORY_LABEL_WIDTH);
  assert.equal(x.overflow, 'truncate');
  assert.equal(zh.xAxis.tooltip.show, true);
  assert.equal(zh.xAxis.tooltip.formatter({ value: 'A <long> name' }), 'A &#60;long&#62; name');
  assert.equal(zh.grid.containLabel, true);
  assert.equal(zh.tooltip.valueFormatter(12345.678901), '12,345.68');
});

test('echarts labels hide on overlap; pie and funnel labels formatted', () => {
  const data = grouped(['a', 'b'], [{ name: 'n', id: 'q', values: [11200540.2567, 2.5] }]);
  data.series[0].property!.valueFormat = NUMBER2 as any;
  const pie = buildEchartsOption(view('pie', 'echarts'), data, { locale: 'zh-cn' }).option.series[0];
  assert.equal(pie.avoidLabelOverlap, true);
  assert.deepEqual(pie.labelLayout, { hideOverlap: true });
  assert.equal(pie.label.overflow, 'truncate');
  assert.equal(pie.label.formatter({ name: 'a', value: 11200540.2567, percent: 99.99 }), 'a\n1120.05万 (100%)');
  assert.equal(pie.label.formatter({ name: 'b', value: 2.5, percent: 0.02 }), 'b\n2.50 (0%)');
  const funnel = buildEchartsOption(view('funnel', 'echarts'), data, { locale: 'en-us' }).option.series[0];
  assert.deepEqual(funnel.labelLayout, { hideOverlap: true });
  assert.equal(funnel.label.formatter({ name: 'a', value: 11200540.2567 }), 'a 11.20M');
  const bar = buildEchartsOption(view('bar', 'echarts', { customAttr: attr({ label: { show: true } }) }), data, { locale: 'en-us' }).option.series[0];
  assert.deepEqual(bar.labelLayout, { hideOverlap: true });
  assert.equal(bar.label.formatter({ value: 11200540.2567 }), '11.20M');
});

test('gauges: the maximum from the view, a real percentage, the value in units with its decimals', () => {
  const g = buildEchartsOption(view('gauge', 'echarts', { customAttr: TARGET }), profit(), { locale: 'zh-cn' }).option.series[0];
  assert.equal(g.max, 20000000);
  assert.equal(g.detail.formatter(11200540.2567), '1120.05万');
  assert.equal(g.axisLabel.formatter(20000000), '2000万');
  const p = buildEchartsOption(view('gauge-percentage', 'echarts', { customAttr: TARGET }), profit(), { locale: 'en-us' }).option.series[0];
  assert.equal(p.max, 100);
  assert.equal(p.data[0].value, 56);
  assert.equal(p.detail.formatter(p.data[0].value), '56.00%');
  assert.equal(p.axisLabel.formatter(100), '100%');
  // the default maximum is 100 (spec 9)
  assert.equal(buildEchartsOption(view('gauge', 'echarts'), single(42)).option.series[0].max, 100);
});

test('scatter bubbles: never taller than a third of the plot, within their category, clear of the axes; radar keeps its names inside', () => {
  const data = { ...grouped(REGIONS, [{ name: 'Amount', id: FIELD.amount, values: [40, 30, 20, 10] }]) };
  data.datas = data.datas.map((d, i) => ({ ...d, popSize: [100, 50, 25, 1][i] }));
  const v = view('scatter', 'echarts', { extBubble: [{ id: FIELD.qty }] });
  // a large chart: the largest bubble at the desktop's 80 pixels, the others by their size
  const large = buildEchartsOption(v, data, { width: 600, height: 400 }).option;
  assert.deepEqual(large.series[0].data.map((d: any) => d.symbolSize), [80, 40, 20, 5]);
  // a small chart: the largest bubble within a third of the plot (the card less the grid's margins) and its
  // category's width; a larger value still draws a larger bubble
  const small = buildEchartsOption(v, data, { width: 200, height: 120 }).option;
  const sizes: number[] = small.series[0].data.map((d: any) => d.symbolSize);
  assert.ok(sizes[0] <= (120 - small.grid.top - small.grid.bottom) / 3, sizes.join(' '));
  assert.ok(sizes[0] <= 200 / REGIONS.length, sizes.join(' '));
  assert.ok(sizes[0] > sizes[1] && sizes[1] >= sizes[2] && sizes[2] >= sizes[3], sizes.join(' '));
  // clear of the axes: the value axis reaches past the highest bubble, the x axis line keeps to the plot's bottom
  assert.ok(small.yAxis.min <= 0 && small.yAxis.max > 40, `${small.yAxis.min}..${small.yAxis.max}`);
  assert.equal(small.xAxis.axisLine.onZero, false);
  // the size not known yet: the plot gives way by the largest bubble's radius
  const unsized = buildEchartsOption(v, data).option;
  assert.equal(unsized.series[0].data[0].symbolSize, 80);
  assert.ok(unsized.grid.top >= 40 && unsized.grid.left >= 40);
  const radar = buildEchartsOption(view('radar', 'echarts'), data).option.radar;
  assert.equal(radar.radius, '60%');
  assert.equal(radar.axisName.overflow, 'truncate');
});

test('g2plot: gauge and liquid show a real percentage of the view maximum; labels formatted and kept apart', () => {
  const g = buildAntvOptions(view('gauge', 'antv', { customAttr: TARGET }), profit(), { locale: 'zh-cn' }).options;
  assert.equal(g.max, 20000000);
  assert.ok(Math.abs(g.percent - 0.56) < 0.001);
  assert.equal(g.statistic.content.content, '1120.05万');
  assert.equal(g.axis.label.formatter('1'), '2000万');
  const l = buildAntvOptions(view('liquid', 'antv', { customAttr: TARGET }), profit(), { locale: 'en-us' }).options;
  assert.equal(l.radius, 0.8);
  assert.equal(l.statistic.content.formatter(), '56.00%');
  const raw = buildAntvOptions(view('liquid', 'antv'), single(42)).options;
  assert.equal(raw.statistic.content.formatter(), '42%');

  const data = grouped(['a', 'b'], [{ name: 'n', id: 'q', values: [11200540.2567, 2.5] }]);
  const pie = buildAntvOptions(view('pie', 'antv'), data, { locale: 'en-us' }).options;
  assert.equal(pie.label.content({ field: 'a', value: 11200540.2567 }), 'a\n11.2M (100%)');
  assert.ok(pie.label.layout.some((l: any) => l.type === 'hide-overlap'));
  const funnel = buildAntvOptions(view('funnel', 'antv'), data, { locale: 'zh-cn' }).options;
  assert.equal(funnel.label.formatter({ field: 'a', value: 11200540.2567 }), 'a 1120.1万');
  const bar = buildAntvOptions(view('bar', 'antv'), data, { locale: 'zh-cn' }).options;
  assert.equal(bar.yAxis.label.formatter('12500000'), '1250万');
  assert.equal(bar.xAxis.label.autoHide.type, 'equidistance');
  assert.equal(bar.tooltip.formatter({ field: 'a', value: 12345.678901 }).value, '12,345.68');
});
