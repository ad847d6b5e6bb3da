/** Chart answers shaped like the dyreport service's getData (plugins/reports/shape.py). */
import type { ChartData, ChartView, Point, Series } from '../../../web-plugins/reports/src/model/types';

export const FIELD = { region: 'f-region', category: 'f-category', amount: 'f-amount', profit: 'f-profit', qty: 'f-qty' };

function point(value: number | null, dims: [string, unknown][], quota: string): Point {
  return { value, dimensionList: dims.map(([id, v]) => ({ id, value: v })), quotaList: [{ id: quota }] };
}

/** One dimension (x) and the given quotas: series per quota. */
export function grouped(x: string[], quotas: { name: string; id: string; values: (number | null)[]; axis?: string; chartType?: string }[], dimId = FIELD.region): ChartData {
  const series: Series[] = quotas.map((q) => ({
    name: q.name,
    summary: 'sum',
    property: { axis: q.axis || 'yaxis', fieldId: q.id, key: q.id, valueFormat: null, chartType: q.chartType ?? null },
    data: q.values.map((v, i) => point(v, [[dimId, x[i]]], q.id)),
  }));
  const datas = quotas.flatMap((q) => q.values.map((v, i) => ({ field: x[i], name: x[i], value: v, category: q.name, dimensionList: [{ id: dimId, value: x[i] }], quotaList: [{ id: q.id }] })));
  const tableRow = x.map((label, i) => Object.fromEntries([['region', label], ...quotas.map((q) => [q.id, q.values[i]])]));
  return {
    x,
    series,
    datas,
    fields: [{ id: dimId, name: 'Region', key: 'region', type: 'text', axis: 'xaxis' }, ...quotas.map((q) => ({ id: q.id, name: q.name, key: q.id, type: 'float', axis: q.axis || 'yaxis', summary: 'sum' }))],
    tableRow,
  };
}

/** x by a second dimension (xaxisExt): one series per ext value. */
export function stacked(x: string[], ext: string[], values: number[][]): ChartData {
  const series: Series[] = ext.map((e, ei) => ({
    name: e,
    summary: 'sum',
    property: { axis: 'yaxis', fieldId: FIELD.amount, key: 'amount', valueFormat: null },
    data: x.map((label, xi) => point(values[ei][xi], [[FIELD.region, label], [FIELD.category, e]], FIELD.amount)),
  }));
  const datas = ext.flatMap((e, ei) => x.map((label, xi) => ({ field: label, name: label, value: values[ei][xi], category: e, dimensionList: [{ id: FIELD.region, value: label }, { id: FIELD.category, value: e }], quotaList: [{ id: FIELD.amount }] })));
  return { x, series, datas, fields: [], tableRow: [] };
}

/** A single value (gauge, liquid, text). */
export function single(value: number, name = 'Profit'): ChartData {
  return {
    x: [],
    series: [{ name, summary: 'sum', property: { axis: 'yaxis', fieldId: FIELD.profit, key: 'profit', valueFormat: null }, data: [point(value, [], FIELD.profit)] }],
    datas: [{ field: '', name: '', value, category: name, dimensionList: [], quotaList: [{ id: FIELD.profit }] }],
    fields: [],
    tableRow: [{ profit: value }],
  };
}

export function view(type: string, render: 'echarts' | 'antv', extra: Partial<ChartView> = {}): ChartView {
  return { id: `v-${type}`, name: type, title: type, type, render, customAttr: '{}', customStyle: '{}', xaxis: [], yaxis: [], ...extra };
}

export const REGIONS = ['East', 'North', 'South', 'West'];
export const ONE = grouped(REGIONS, [{ name: 'Amount', id: FIELD.amount, values: [40, 30, 20, 10] }]);
export const TWO = grouped(REGIONS, [
  { name: 'Amount', id: FIELD.amount, values: [40, 30, 20, 10] },
  { name: 'Profit', id: FIELD.profit, values: [4, 3, 2, 1], axis: 'yaxisExt' },
]);
export const STACK = stacked(['2023', '2024'], ['Office', 'Tech', 'Furniture'], [[1, 2], [3, 4], [5, 6]]);
