import { test } from 'node:test';
import assert from 'node:assert/strict';
import { viewStyles, viewThreshold, palette, DEFAULT_COLORS } from '../../../web-plugins/reports/src/charts/common';
import { legendOption, axisOption } from '../../../web-plugins/reports/src/charts/echartsOptions';
import { tablePageSize } from '../../../web-plugins/reports/src/charts/tables';
import {
  addField, brokenIds, canDrop, draftFromView, isDrawable, moveItem, paletteFields, removeItem, setKind, updateAxis, viewFromDraft, withoutBroken, zonesFor,
  type PaletteField,
} from '../../../web-plugins/reports/src/designer/view/model';
import { ANTV_KINDS, ECHARTS_KINDS, kindsOf } from '../../../web-plugins/reports/src/designer/view/kinds';
import { newRule, setAttr, setColor, setCustomColors, setRules, setStyle, setTablePageSize, updateRule } from '../../../web-plugins/reports/src/designer/view/styleModel';
import { dataKey } from '../../../web-plugins/reports/src/designer/view/useCalcPreview';
import type { ChartView } from '../../../web-plugins/reports/src/model/types';

const REGION: PaletteField = { id: 'f-region', name: 'Region', dataeaseName: 'region', type: 'text', role: 'dimension' };
const DATE: PaletteField = { id: 'f-date', name: 'Date', dataeaseName: 'date', type: 'time', role: 'dimension' };
const AMOUNT: PaletteField = { id: 'f-amount', name: 'Amount', dataeaseName: 'amount', type: 'float', role: 'quota' };
const COUNT: PaletteField = { id: 'count', name: 'Record count', dataeaseName: 'count', type: 'integer', role: 'quota' };

const fresh = () => ({ ...draftFromView(null, 'p1'), tableId: 'ds1' });

test('the palette lists ticked fields and the record count', () => {
  const fields = paletteFields(
    [
      { id: 'a', name: 'A', dataeaseName: 'a', originName: 'a', type: 'text', role: 'dimension', checked: true },
      { id: 'b', name: 'B', dataeaseName: 'b', originName: 'b', type: 'text', role: 'dimension', checked: false },
    ],
    'Record count',
  );
  assert.deepEqual(fields.map((f) => f.id), ['a', 'count']);
  assert.equal(fields[1].role, 'quota');
});

test('dropping fields: quotas get the default aggregation, time dimensions a date style, no duplicate dimension', () => {
  let d = fresh();
  d = addField(d, 'xaxis', DATE);
  d = addField(d, 'xaxis', DATE);
  d = addField(d, 'yaxis', AMOUNT);
  d = addField(d, 'yaxis', REGION);
  d = addField(d, 'yaxis', COUNT);
  assert.deepEqual(d.xaxis, [{ id: 'f-date', dateStyle: 'y_M_d' }]);
  assert.deepEqual(d.yaxis, [{ id: 'f-amount', summary: 'sum' }, { id: 'f-region', summary: 'count' }, { id: 'count', summary: 'count' }]);
  // the record count is only a quota
  assert.equal(canDrop(d, 'xaxis', COUNT), false);
  assert.equal(addField(d, 'drillFields', COUNT), d);
  // a field may be a quota twice (with two aggregations)
  assert.equal(canDrop(d, 'yaxis', AMOUNT), true);
});

test('a static filter starts empty with an operator fitting the field', () => {
  const d = addField(addField(fresh(), 'customFilter', REGION), 'customFilter', AMOUNT);
  assert.deepEqual(d.customFilter, [
    { fieldId: 'f-region', operator: 'in', value: [] },
    { fieldId: 'f-amount', operator: 'eq', value: [] },
  ]);
  assert.deepEqual(removeItem(d, 'customFilter', 0).customFilter, [{ fieldId: 'f-amount', operator: 'eq', value: [] }]);
});

test('chip settings edit one item; undefined removes a setting', () => {
  let d = addField(addField(fresh(), 'yaxis', AMOUNT), 'yaxis', AMOUNT);
  d = updateAxis(d, 'yaxis', 1, { summary: 'avg', sort: 'desc', valueFormat: { formatType: 'percent', decimalNumber: 1 }, name: 'Avg amount' });
  assert.deepEqual(d.yaxis[0], { id: 'f-amount', summary: 'sum' });
  assert.deepEqual(d.yaxis[1], { id: 'f-amount', summary: 'avg', sort: 'desc', valueFormat: { formatType: 'percent', decimalNumber: 1 }, name: 'Avg amount' });
  d = updateAxis(d, 'yaxis', 1, { valueFormat: undefined, name: undefined });
  assert.deepEqual(d.yaxis[1], { id: 'f-amount', summary: 'avg', sort: 'desc' });
});

test('moving chips: between quota zones the settings stay; to a dimension zone the aggregation goes', () => {
  let d = addField(addField(fresh(), 'yaxis', AMOUNT), 'xaxis', REGION);
  d = updateAxis(d, 'yaxis', 0, { summary: 'max' });
  const toExt = moveItem(d, 'yaxis', 0, 'yaxisExt', 0, AMOUNT);
  assert.deepEqual(toExt.yaxis, []);
  assert.deepEqual(toExt.yaxisExt, [{ id: 'f-amount', summary: 'max' }]);
  const toDim = moveItem(d, 'yaxis', 0, 'drillFields', 0, AMOUNT);
  assert.deepEqual(toDim.drillFields, [{ id: 'f-amount' }]);
  const back = moveItem(toDim, 'drillFields', 0, 'yaxis', 0, AMOUNT);
  assert.deepEqual(back.yaxis, [{ id: 'f-amount', summary: 'sum' }]);
  // a dimension already in the target zone is not duplicated
  const twice = moveItem(addField(d, 'drillFields', REGION), 'xaxis', 0, 'drillFields', 0, REGION);
  assert.deepEqual(twice.xaxis, [{ id: 'f-region' }]);
  // reordering inside a zone
  const two = addField(d, 'yaxis', COUNT);
  assert.deepEqual(moveItem(two, 'yaxis', 0, 'yaxis', 1).yaxis.map((a) => a.id), ['count', 'f-amount']);
});

test('fields the dataset lost are broken and left out of the preview, never dropped silently from the draft', () => {
  const saved = { id: 'v1', panelId: 'p1', tableId: 'ds1', name: 'V', title: 'V', type: 'bar', render: 'echarts', xaxis: [{ id: 'gone' }, { id: 'f-region' }], yaxis: [{ id: 'count', summary: 'count' }], customFilter: [{ fieldId: 'gone2', operator: 'eq', value: ['x'] }] } as unknown as ChartView;
  const d = draftFromView(saved, 'p1');
  const broken = brokenIds(d, [REGION, COUNT]);
  assert.deepEqual([...broken].sort(), ['gone', 'gone2']);
  const clean = withoutBroken(d, broken);
  assert.deepEqual(clean.xaxis, [{ id: 'f-region' }]);
  assert.deepEqual(clean.customFilter, []);
  assert.equal(d.xaxis.length, 2);
  // junk in a stored view does not break the editor
  const junk = draftFromView({ ...saved, xaxis: [null, 'x', { name: 'no id' }] as never, customAttr: '{not json' }, 'p1');
  assert.deepEqual(junk.xaxis, []);
  assert.deepEqual(junk.attr, {});
});

test('the view object: JSON text for customAttr and customStyle, no id when new, the panel id always', () => {
  let d = addField(addField(fresh(), 'xaxis', REGION), 'yaxis', AMOUNT);
  d = { ...d, title: ' Sales ' };
  d = setAttr(d, ['label', 'show'], true);
  d = setStyle(d, ['legend', 'hPosition'], 'right');
  const v = viewFromDraft(d) as ChartView & { tableId: string };
  assert.equal('id' in v, false);
  assert.equal(v.panelId, 'p1');
  assert.equal(v.tableId, 'ds1');
  assert.equal(v.title, 'Sales');
  assert.equal(v.name, 'Sales');
  assert.equal(typeof v.customAttr, 'string');
  assert.deepEqual(JSON.parse(v.customAttr as string), { label: { show: true } });
  assert.deepEqual(JSON.parse(v.customStyle as string), { legend: { hPosition: 'right' } });
  const again = draftFromView({ ...v, id: 'v9' }, 'p1');
  assert.equal(viewFromDraft(again).id, 'v9');
  assert.deepEqual(again.yaxis, [{ id: 'f-amount', summary: 'sum' }]);
});

test('the viewer reads every style the editor writes', () => {
  let d = fresh();
  d = setCustomColors(d, true);
  d = setColor(d, 0, '#112233');
  d = setAttr(d, ['color', 'alpha'], 100);
  d = setStyle(d, ['legend', 'show'], false);
  d = setStyle(d, ['xAxis', 'name'], 'Region');
  d = setStyle(d, ['xAxis', 'axisLabel', 'rotate'], 45);
  d = setRules(d, [newRule('between')]);
  d = updateRule(d, 0, { color: '#00ff00' });
  d = setTablePageSize(d, 50);
  const s = viewStyles(viewFromDraft(d));
  assert.equal(palette(s.attr)[0], 'rgba(17, 34, 51, 1)');
  assert.equal(palette(s.attr).length, DEFAULT_COLORS.length);
  assert.equal(legendOption(s, ['a']).show, false);
  const axis = axisOption(s.style.xAxis, 'category', ['x']);
  assert.equal(axis.name, 'Region');
  assert.equal(axis.axisLabel.rotate, 45);
  assert.deepEqual(viewThreshold(s).ruleList, [{ type: 'between', values: [0, 100], color: '#00ff00' }]);
  assert.equal(tablePageSize(s.attr, 20), 50);
  assert.equal(viewFromDraft(d).pageSize, 50);
  // custom colours off: back to the palette
  assert.equal(JSON.parse(viewFromDraft(setCustomColors(d, false)).customAttr as string).color.colors, undefined);
});

test('a threshold changing to or from between keeps its first value', () => {
  let d = setRules(fresh(), [{ type: 'gt', values: [7], color: '#f00' }]);
  d = updateRule(d, 0, { type: 'between' });
  assert.deepEqual(JSON.parse(viewFromDraft(d).customAttr as string).threshold.ruleList[0].values, [7, 7]);
  d = updateRule(d, 0, { type: 'le' });
  assert.deepEqual(JSON.parse(viewFromDraft(d).customAttr as string).threshold.ruleList[0].values, [7]);
});

test('the 36 kinds of the spec, with the engine that draws them', () => {
  assert.equal(ECHARTS_KINDS.length, 17);
  assert.equal(ANTV_KINDS.length, 16);
  assert.ok(kindsOf('echarts').includes('table-pivot') && kindsOf('antv').includes('label'));
  // liquid only exists in AntV, map only in ECharts
  assert.deepEqual([setKind(fresh(), 'liquid').render, setKind(fresh(), 'liquid').type], ['antv', 'liquid']);
  assert.equal(setKind({ ...fresh(), render: 'antv' }, 'map').render, 'echarts');
  assert.equal(setKind({ ...fresh(), render: 'antv' }, 'table-info').render, 'antv');
});

test('each kind shows the zones it reads', () => {
  assert.deepEqual(zonesFor('bar'), ['xaxis', 'yaxis', 'drillFields', 'customFilter']);
  assert.deepEqual(zonesFor('bar-stack'), ['xaxis', 'xaxisExt', 'yaxis', 'drillFields', 'customFilter']);
  assert.ok(zonesFor('chart-mix').includes('yaxisExt'));
  assert.ok(zonesFor('scatter').includes('extBubble'));
  assert.deepEqual(zonesFor('gauge'), ['yaxis', 'customFilter']);
  assert.deepEqual(zonesFor('table-info'), ['xaxis', 'customFilter']);
  assert.ok(zonesFor('table-pivot').includes('xaxisExt'));
});

test('the preview waits for a dataset and a quota (or the columns of a detail table); style changes do not refetch', () => {
  let d = draftFromView(null, 'p1');
  assert.equal(isDrawable(d), false);
  d = { ...d, tableId: 'ds1' };
  assert.equal(isDrawable(addField(d, 'xaxis', REGION)), false);
  assert.equal(isDrawable(addField(d, 'yaxis', AMOUNT)), true);
  assert.equal(isDrawable(addField({ ...d, type: 'table-info' }, 'xaxis', REGION)), true);
  const key = dataKey(d);
  assert.equal(dataKey(setStyle(d, ['legend', 'show'], false)), key);
  assert.notEqual(dataKey(addField(d, 'yaxis', AMOUNT)), key);
  assert.notEqual(dataKey({ ...d, resultMode: 'custom' }), key);
});
