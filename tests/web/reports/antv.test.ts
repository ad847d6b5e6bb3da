import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANTV_KINDS, buildAntvOptions, records } from '../../../web-plugins/reports/src/charts/antvOptions';
import { FIELD, ONE, STACK, TWO, single, view } from './fixtures';

const attr = (o: object) => JSON.stringify(o);

test('every antv kind of the spec maps to a g2plot plot', () => {
  assert.equal(ANTV_KINDS.length, 16);
  const plots: Record<string, string> = {};
  for (const kind of ANTV_KINDS) {
    const data = kind === 'gauge' || kind === 'liquid' ? single(42) : ONE;
    const r = buildAntvOptions(view(kind, 'antv'), data);
    plots[kind] = r.plot;
    assert.ok(r.seriesCount >= 1, kind);
  }
  assert.deepEqual(plots, {
    bar: 'Column', 'bar-stack': 'Column', 'bar-horizontal': 'Bar', 'bar-stack-horizontal': 'Bar', line: 'Line', 'line-stack': 'Area',
    scatter: 'Scatter', radar: 'Radar', gauge: 'Gauge', pie: 'Pie', 'pie-rose': 'Rose', funnel: 'Funnel', treemap: 'Treemap',
    liquid: 'Liquid', waterfall: 'Waterfall', 'word-cloud': 'WordCloud',
  });
});

test('records keep the clicked dimensions', () => {
  const rs = records(ONE);
  assert.equal(rs.length, 4);
  assert.deepEqual(rs[0].dimensionList, [{ id: FIELD.region, value: 'East' }]);
  assert.equal(rs[0].field, 'East');
  assert.equal(rs[0].value, 40);
});

test('column: grouped by series when there are several, stacked for bar-stack, width 40 at most', () => {
  const one = buildAntvOptions(view('bar', 'antv'), ONE);
  assert.equal(one.options.seriesField, undefined);
  assert.equal(one.options.maxColumnWidth, 40);
  assert.equal(one.seriesCount, 1);
  const two = buildAntvOptions(view('bar', 'antv'), TWO);
  assert.equal(two.options.seriesField, 'category');
  assert.equal(two.options.isGroup, true);
  assert.equal(two.seriesCount, 2);
  const stack = buildAntvOptions(view('bar-stack', 'antv'), STACK);
  assert.equal(stack.options.isStack, true);
  assert.equal(stack.seriesCount, 3);
  const h = buildAntvOptions(view('bar-stack-horizontal', 'antv'), STACK);
  assert.equal(h.options.xField, 'value');
  assert.equal(h.options.yField, 'field');
  assert.equal(h.options.maxBarWidth, 40);
});

test('line: width 2 by default; line-stack stacks areas', () => {
  const line = buildAntvOptions(view('line', 'antv'), ONE).options;
  assert.equal(line.lineStyle.lineWidth, 2);
  assert.equal(line.isStack, false);
  const stack = buildAntvOptions(view('line-stack', 'antv'), STACK);
  assert.equal(stack.options.isStack, true);
  assert.equal(stack.seriesCount, 3);
});

test('scatter: size 20 without bubbles; bubble sizes range 5 to 30', () => {
  const plain = buildAntvOptions(view('scatter', 'antv'), ONE).options;
  assert.equal(plain.size, 20);
  assert.equal(plain.sizeField, undefined);
  const data = { ...ONE, datas: ONE.datas.map((d, i) => ({ ...d, popSize: i + 1 })) };
  const bubble = buildAntvOptions(view('scatter', 'antv', { extBubble: [{ id: FIELD.qty }] }), data).options;
  assert.deepEqual(bubble.size, [5, 30]);
  assert.equal(bubble.sizeField, 'popSize');
});

test('gauge: percent of the max (100 by default); liquid: max 100 and size 80 percent', () => {
  const g = buildAntvOptions(view('gauge', 'antv'), single(42)).options;
  assert.equal(g.percent, 0.42);
  const g2 = buildAntvOptions(view('gauge', 'antv', { customAttr: attr({ size: { gaugeMax: 84 } }) }), single(42)).options;
  assert.equal(g2.percent, 0.5);
  const l = buildAntvOptions(view('liquid', 'antv'), single(42)).options;
  assert.equal(l.percent, 0.42);
  assert.equal(l.radius, 0.8);
  const l2 = buildAntvOptions(view('liquid', 'antv', { customAttr: attr({ size: { liquidMax: 200, liquidSize: 60 } }) }), single(50)).options;
  assert.equal(l2.percent, 0.25);
  assert.equal(l2.radius, 0.6);
});

test('word cloud: font sizes 8 to 32, padding 6', () => {
  const w = buildAntvOptions(view('word-cloud', 'antv'), ONE).options;
  assert.deepEqual(w.wordStyle.fontSize, [8, 32]);
  assert.equal(w.wordStyle.padding, 6);
  assert.equal(w.wordField, 'field');
  assert.equal(w.weightField, 'value');
  assert.equal(w.data.length, 4);
});

test('pie, rose, funnel, treemap and waterfall read the first quota', () => {
  const pie = buildAntvOptions(view('pie', 'antv'), TWO).options;
  assert.equal(pie.data.length, 4);
  assert.equal(pie.angleField, 'value');
  assert.equal(pie.colorField, 'field');
  const rose = buildAntvOptions(view('pie-rose', 'antv'), ONE).options;
  assert.equal(rose.xField, 'field');
  const funnel = buildAntvOptions(view('funnel', 'antv'), ONE).options;
  assert.deepEqual(funnel.data.map((d: any) => d.value), [40, 30, 20, 10]);
  const tree = buildAntvOptions(view('treemap', 'antv'), ONE).options;
  assert.equal(tree.data.children.length, 4);
  assert.equal(tree.data.children[0].name, 'East');
  const wf = buildAntvOptions(view('waterfall', 'antv'), TWO).options;
  assert.equal(wf.data.length, 4);
});

test('legend and palette follow customStyle and customAttr; thresholds colour single-series bars', () => {
  const v = view('bar', 'antv', {
    customStyle: attr({ legend: { show: true, hPosition: 'right', vPosition: 'top' } }),
    customAttr: attr({ color: { colors: ['#112233'], alpha: 40 }, threshold: { ruleList: [{ type: 'lt', values: [25], color: '#ff0000' }] } }),
  });
  const multi = buildAntvOptions(v, TWO).options;
  assert.equal(multi.legend.position, 'top-right');
  assert.deepEqual(multi.color, ['rgba(17, 34, 51, 0.4)']);
  const single1 = buildAntvOptions(v, ONE).options;
  assert.equal(single1.color({ value: 10 }), '#ff0000');
  assert.equal(single1.color({ value: 30 }), 'rgba(17, 34, 51, 0.4)');
  const off = buildAntvOptions(view('bar', 'antv', { customStyle: attr({ legend: { show: false } }) }), TWO).options;
  assert.equal(off.legend, false);
});
