import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEchartsOption, ECHARTS_KINDS, gaugeStops, MAP_NAME } from '../../../web-plugins/reports/src/charts/echartsOptions';
import { DEFAULT_COLORS } from '../../../web-plugins/reports/src/charts/common';
import { FIELD, ONE, REGIONS, STACK, TWO, grouped, single, view } from './fixtures';

const attr = (o: object) => JSON.stringify(o);

test('every echarts kind of the spec gives an option with series', () => {
  assert.equal(ECHARTS_KINDS.length, 17);
  for (const kind of ECHARTS_KINDS) {
    const data = kind.startsWith('gauge') ? single(42) : kind === 'bar-contrast' || kind === 'chart-mix' || kind === 'radar' ? TWO : ONE;
    const { option, seriesCount } = buildEchartsOption(view(kind, 'echarts'), data);
    assert.ok(Array.isArray(option.series) && option.series.length > 0, kind);
    assert.ok(seriesCount > 0, kind);
  }
});

test('bar: one series per quota, categories on x, bar width at most 40 by default, palette of 9', () => {
  const { option, seriesCount } = buildEchartsOption(view('bar', 'echarts'), TWO);
  assert.equal(seriesCount, 2);
  assert.deepEqual(option.xAxis.data, REGIONS);
  assert.equal(option.xAxis.type, 'category');
  assert.equal(option.yAxis.type, 'value');
  assert.equal(option.series[0].type, 'bar');
  assert.equal(option.series[0].barMaxWidth, 40);
  assert.equal(option.series[0].stack, undefined);
  assert.deepEqual(option.series[0].data.map((d: any) => d.value), [40, 30, 20, 10]);
  assert.deepEqual(option.series[0].data[0].dimensionList, [{ id: FIELD.region, value: 'East' }]);
  assert.equal(option.color.length, 9);
  assert.equal(option.color[0], 'rgba(84, 112, 198, 1)');
  assert.equal(DEFAULT_COLORS.length, 9);
});

test('bar width from the size settings when the default is off; colours with alpha', () => {
  const v = view('bar', 'echarts', { customAttr: attr({ size: { barDefault: false, barWidth: 24 }, color: { colors: ['#ff0000', '#00ff00'], alpha: 50 } }) });
  const { option } = buildEchartsOption(v, ONE);
  assert.equal(option.series[0].barWidth, 24);
  assert.deepEqual(option.color, ['rgba(255, 0, 0, 0.5)', 'rgba(0, 255, 0, 0.5)']);
});

test('stacked and horizontal bars', () => {
  const stack = buildEchartsOption(view('bar-stack', 'echarts'), STACK);
  assert.equal(stack.seriesCount, 3);
  assert.ok(stack.option.series.every((s: any) => s.stack === 'stack'));
  const h = buildEchartsOption(view('bar-horizontal', 'echarts'), ONE).option;
  assert.equal(h.xAxis.type, 'value');
  assert.equal(h.yAxis.type, 'category');
  assert.deepEqual(h.yAxis.data, REGIONS);
  const hs = buildEchartsOption(view('bar-stack-horizontal', 'echarts'), STACK).option;
  assert.equal(hs.yAxis.type, 'category');
  assert.ok(hs.series.every((s: any) => s.stack === 'stack'));
});

test('bar-contrast: the first quota goes left (negative), labels show absolute values', () => {
  const { option, seriesCount } = buildEchartsOption(view('bar-contrast', 'echarts'), TWO);
  assert.equal(seriesCount, 2);
  assert.deepEqual(option.series[0].data.map((d: any) => d.value), [-40, -30, -20, -10]);
  assert.deepEqual(option.series[1].data.map((d: any) => d.value), [4, 3, 2, 1]);
  assert.equal(option.xAxis.axisLabel.formatter(-40), '40');
});

test('line: width 2 by default, smooth; line-stack stacks with areas', () => {
  const line = buildEchartsOption(view('line', 'echarts'), ONE).option;
  assert.equal(line.series[0].type, 'line');
  assert.equal(line.series[0].lineStyle.width, 2);
  assert.equal(line.series[0].areaStyle, undefined);
  const custom = buildEchartsOption(view('line', 'echarts', { customAttr: attr({ size: { lineWidth: 5, lineSmooth: false } }) }), ONE).option;
  assert.equal(custom.series[0].lineStyle.width, 5);
  assert.equal(custom.series[0].smooth, false);
  const stack = buildEchartsOption(view('line-stack', 'echarts'), STACK);
  assert.equal(stack.seriesCount, 3);
  assert.ok(stack.option.series.every((s: any) => s.stack === 'stack' && s.areaStyle));
});

test('pie and rose: name/value items of the first quota, legend of the names', () => {
  const pie = buildEchartsOption(view('pie', 'echarts'), ONE).option;
  assert.equal(pie.series.length, 1);
  assert.deepEqual(pie.series[0].data.map((d: any) => [d.name, d.value]), [['East', 40], ['North', 30], ['South', 20], ['West', 10]]);
  assert.deepEqual(pie.legend.data, REGIONS);
  assert.equal(pie.series[0].roseType, undefined);
  const rose = buildEchartsOption(view('pie-rose', 'echarts'), ONE).option;
  assert.equal(rose.series[0].roseType, 'radius');
});

test('funnel sorts descending; treemap colours each block from the palette', () => {
  const data = grouped(['a', 'b', 'c'], [{ name: 'n', id: 'q', values: [1, 3, 2] }]);
  const f = buildEchartsOption(view('funnel', 'echarts'), data).option;
  assert.deepEqual(f.series[0].data.map((d: any) => d.value), [3, 2, 1]);
  const t = buildEchartsOption(view('treemap', 'echarts'), data).option;
  assert.equal(t.series[0].type, 'treemap');
  assert.equal(t.series[0].data.length, 3);
  assert.equal(t.series[0].data[1].itemStyle.color, 'rgba(145, 204, 117, 1)');
});

test('radar: indicators from x, one entry per quota', () => {
  const { option, seriesCount } = buildEchartsOption(view('radar', 'echarts'), TWO);
  assert.deepEqual(option.radar.indicator.map((i: any) => i.name), REGIONS);
  assert.equal(seriesCount, 2);
  assert.deepEqual(option.series[0].data[0].value, [40, 30, 20, 10]);
  assert.ok(option.radar.indicator[0].max >= 40);
});

test('gauge: max 100 by default, or the size setting; percentage gauge shows value over max', () => {
  const g = buildEchartsOption(view('gauge', 'echarts'), single(42)).option;
  assert.equal(g.series[0].max, 100);
  assert.equal(g.series[0].data[0].value, 42);
  const g2 = buildEchartsOption(view('gauge', 'echarts', { customAttr: attr({ size: { gaugeMax: 200 } }) }), single(42)).option;
  assert.equal(g2.series[0].max, 200);
  const p = buildEchartsOption(view('gauge-percentage', 'echarts', { customAttr: attr({ size: { gaugeMax: 200 } }) }), single(50)).option;
  assert.equal(p.series[0].max, 100);
  assert.equal(p.series[0].data[0].value, 25);
  assert.equal(p.series[0].detail.formatter(25), '25%');
});

test('gauge thresholds become axis colour stops', () => {
  const stops = gaugeStops({ ruleList: [{ type: 'le', values: [30], color: 'red' }, { type: 'between', values: [30, 70], color: 'orange' }] }, 0, 100, 'green');
  assert.deepEqual(stops, [[0.3, 'red'], [0.7, 'orange'], [1, 'green']]);
  const g = buildEchartsOption(view('gauge', 'echarts', { customAttr: attr({ threshold: { ruleList: [{ type: 'le', values: [50], color: '#f00' }] } }) }), single(10)).option;
  assert.deepEqual(g.series[0].axisLine.lineStyle.color[0], [0.5, '#f00']);
});

test('thresholds colour matching points', () => {
  const v = view('bar', 'echarts', { customAttr: attr({ threshold: { ruleList: [{ type: 'gt', values: [25], color: '#ff0000' }] } }) });
  const { option } = buildEchartsOption(v, ONE);
  assert.deepEqual(option.series[0].data.map((d: any) => d.itemStyle?.color), ['#ff0000', '#ff0000', undefined, undefined]);
});

test('scatter: fixed symbol 20 by default (within 5..30); bubbles scale to 80 on desktop and 30 otherwise', () => {
  const plain = buildEchartsOption(view('scatter', 'echarts'), ONE).option;
  assert.ok(plain.series[0].data.every((d: any) => d.symbolSize === 20));
  const big = buildEchartsOption(view('scatter', 'echarts', { customAttr: attr({ size: { scatterSymbolSize: 90 } }) }), ONE).option;
  assert.equal(big.series[0].data[0].symbolSize, 30);
  const data = { ...ONE, datas: ONE.datas.map((d, i) => ({ ...d, popSize: [100, 50, 25, 1][i] })) };
  const v = view('scatter', 'echarts', { extBubble: [{ id: FIELD.qty }] });
  const desk = buildEchartsOption(v, data).option;
  assert.deepEqual(desk.series[0].data.map((d: any) => d.symbolSize), [80, 40, 20, 5]);
  const mobile = buildEchartsOption(v, data, { mobile: true }).option;
  assert.deepEqual(mobile.series[0].data.map((d: any) => d.symbolSize), [30, 15, 7.5, 5]);
  assert.deepEqual(desk.series[0].data[0].value, ['East', 40]);
});

test('chart-mix: bar and line by the quota chart type, the extension quota on a second axis', () => {
  const data = grouped(REGIONS, [
    { name: 'Amount', id: FIELD.amount, values: [1, 2, 3, 4], chartType: 'bar' },
    { name: 'Profit', id: FIELD.profit, values: [4, 3, 2, 1], axis: 'yaxisExt', chartType: 'line' },
  ]);
  const { option, seriesCount } = buildEchartsOption(view('chart-mix', 'echarts'), data);
  assert.equal(seriesCount, 2);
  assert.deepEqual(option.series.map((s: any) => s.type), ['bar', 'line']);
  assert.deepEqual(option.series.map((s: any) => s.yAxisIndex), [0, 1]);
  assert.equal(option.yAxis.length, 2);
});

test('map: the shipped map, values by province name, a visual map over the range', () => {
  const data = grouped(['广东', '上海'], [{ name: 'Amount', id: FIELD.amount, values: [10, 30] }]);
  const { option } = buildEchartsOption(view('map', 'echarts'), data);
  assert.equal(option.series[0].type, 'map');
  assert.equal(option.series[0].map, MAP_NAME);
  assert.deepEqual(option.series[0].data.map((d: any) => [d.name, d.value]), [['广东', 10], ['上海', 30]]);
  assert.equal(option.visualMap.min, 10);
  assert.equal(option.visualMap.max, 30);
});

test('customStyle: legend position and visibility, axis label rotation, axis range; tooltip off', () => {
  const v = view('bar', 'echarts', {
    customStyle: attr({ legend: { show: true, hPosition: 'left', vPosition: 'top', orient: 'vertical' }, xAxis: { axisLabel: { rotate: 45, fontSize: 9 } }, yAxis: { axisValue: { auto: false, min: 0, max: 500 } } }),
    customAttr: attr({ tooltip: { show: false }, label: { show: true, fontSize: 11, position: 'inside' } }),
  });
  const { option } = buildEchartsOption(v, TWO);
  assert.equal(option.legend.left, 'left');
  assert.equal(option.legend.top, 0);
  assert.equal(option.legend.orient, 'vertical');
  assert.equal(option.xAxis.axisLabel.rotate, 45);
  assert.equal(option.xAxis.axisLabel.fontSize, 9);
  assert.equal(option.yAxis.min, 0);
  assert.equal(option.yAxis.max, 500);
  assert.equal(option.tooltip.show, false);
  assert.equal(option.series[0].label.show, true);
  assert.equal(option.series[0].label.position, 'inside');
  const hidden = buildEchartsOption(view('bar', 'echarts', { customStyle: attr({ legend: { show: false } }) }), TWO).option;
  assert.equal(hidden.legend.show, false);
});

test('the panel colours win unless the view has style priority', () => {
  const panelChart = { customAttr: { color: { colors: ['#000000'], alpha: 100 } } };
  const own = attr({ color: { colors: ['#ffffff'], alpha: 100 } });
  assert.deepEqual(buildEchartsOption(view('bar', 'echarts', { customAttr: own, stylePriority: 'panel' }), ONE, { panelChart }).option.color, ['rgba(0, 0, 0, 1)']);
  assert.deepEqual(buildEchartsOption(view('bar', 'echarts', { customAttr: own, stylePriority: 'view' }), ONE, { panelChart }).option.color, ['rgba(255, 255, 255, 1)']);
});

test('value formats reach labels', () => {
  const data = grouped(['a'], [{ name: 'n', id: 'q', values: [0.1234] }]);
  data.series[0].property!.valueFormat = { formatType: 'percent', decimalNumber: 1 };
  const { option } = buildEchartsOption(view('bar', 'echarts', { customAttr: attr({ label: { show: true } }) }), data);
  assert.equal(option.series[0].label.formatter({ value: 0.1234, data: { value: 0.1234 } }), '12.3%');
});

test('empty or missing data gives empty series, not an error', () => {
  for (const kind of ['bar', 'pie', 'map', 'gauge', 'radar', 'scatter']) {
    const { option } = buildEchartsOption(view(kind, 'echarts'), { x: [], series: [], datas: [], fields: [], tableRow: [] });
    assert.ok(option, kind);
  }
  assert.doesNotThrow(() => buildEchartsOption(view('bar', 'echarts', { customAttr: 'not json' }), null as any));
});

test('the bubble quota sizes points and is not drawn as a series of its own', () => {
  const data = grouped(REGIONS, [
    { name: 'Amount', id: FIELD.amount, values: [40, 30, 20, 10] },
    { name: 'Quantity', id: FIELD.qty, values: [4, 3, 2, 1], axis: 'extBubble' },
  ]);
  data.datas = data.datas.filter((d) => d.category === 'Amount').map((d, i) => ({ ...d, popSize: [4, 3, 2, 1][i] }));
  const { option, seriesCount } = buildEchartsOption(view('scatter', 'echarts', { extBubble: [{ id: FIELD.qty }] }), data);
  assert.equal(seriesCount, 1);
  assert.deepEqual(option.series[0].data.map((d: any) => d.symbolSize), [80, 60, 40, 20]);
});

/** The labels of a value axis' ticks, from its bound to bound by its step. */
function tickLabels(axis: any): string[] {
  const out: string[] = [];
  for (let v = axis.min; v <= axis.max + axis.interval / 2; v += axis.interval) out.push(axis.axisLabel.formatter(v));
  return out;
}

test('value axes read compactly: one number format for every tick, chosen from the axis\' largest bound', () => {
  // an axis reaching 10,000 or more writes every tick in its largest bound's unit
  const big = grouped(REGIONS, [{ name: 'Amount', id: FIELD.amount, values: [12500000, 8000000, 3000000, 1000000] }]);
  const y = buildEchartsOption(view('bar', 'echarts'), big, { width: 600, height: 400 }).option.yAxis;
  const labels = tickLabels(y);
  assert.ok(labels.length >= 3, labels.join(' '));
  assert.equal(labels[0], '0');
  for (const l of labels.slice(1)) assert.match(l, /^\d+(\.\d+)?M$/, labels.join(' '));
  assert.equal(y.axisLabel.formatter(12500000), '12.5M');
  // before the chart's size is known too: the units of the largest value
  const unsized = buildEchartsOption(view('bar', 'echarts'), big).option.yAxis;
  assert.equal(unsized.axisLabel.formatter(12500000), '12.5M');
  assert.equal(unsized.axisLabel.formatter(5000000), '5M');
  // below 10,000 every tick is written in full with separators, none in units
  const small = grouped(REGIONS, [{ name: 'Amount', id: FIELD.amount, values: [4000, 3000, 1200, 10] }]);
  const s = buildEchartsOption(view('bar', 'echarts'), small, { width: 600, height: 400 }).option.yAxis;
  const full = tickLabels(s);
  assert.ok(full.length >= 3, full.join(' '));
  for (const l of full) assert.match(l, /^\d{1,3}(,\d{3})*$/, full.join(' '));
  assert.ok(full.some((l) => l.includes(',')), full.join(' '));
  assert.equal(s.axisLabel.formatter(1200), '1,200');
  // the format is the axis', not the number's: a small axis writes any number in full
  assert.equal(buildEchartsOption(view('bar', 'echarts'), ONE).option.yAxis.axisLabel.formatter(12500000), '12,500,000');
});
