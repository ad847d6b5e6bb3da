import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INT_MAX, INT_MIN, checkBound, dynamicDates, emptyValue, filtersForView, initialValue, numberRangeCondition, selectAllState, toggleRadio,
  validDateRange, widgetCondition, widgetFilters, widgetKind,
} from '../../../web-plugins/reports/src/model/filters';
import type { PanelComponent } from '../../../web-plugins/reports/src/model/types';

const comp = (component: string, attrs: object = {}, extra: Partial<PanelComponent> = {}): PanelComponent =>
  ({ id: `w-${component}`, type: 'custom', component, style: { left: 0, top: 0, width: 1, height: 1 }, options: { attrs, value: [] }, ...extra }) as PanelComponent;

test('number bounds: integers only, within the 32-bit range; empty is no bound', () => {
  assert.deepEqual(checkBound(''), { value: null });
  assert.deepEqual(checkBound('  '), { value: null });
  assert.deepEqual(checkBound('12'), { value: 12 });
  assert.deepEqual(checkBound('-7'), { value: -7 });
  assert.equal(checkBound('1.5').error, 'mustInt');
  assert.equal(checkBound('abc').error, 'mustInt');
  assert.equal(checkBound('1e3').error, 'mustInt');
  assert.deepEqual(checkBound(String(INT_MIN)), { value: INT_MIN });
  assert.deepEqual(checkBound(String(INT_MAX)), { value: INT_MAX });
  assert.equal(checkBound('-2147483649').error, 'outOfMin');
  assert.equal(checkBound('2147483648').error, 'outOfMax');
});

test('number range operator: ge, le, between or none', () => {
  assert.deepEqual(numberRangeCondition(5, null), { operator: 'ge', value: [5] });
  assert.deepEqual(numberRangeCondition(null, 9), { operator: 'le', value: [9] });
  assert.deepEqual(numberRangeCondition(5, 9), { operator: 'between', value: [5, 9] });
  assert.deepEqual(numberRangeCondition(9, 5), { operator: 'between', value: [5, 9] });
  assert.equal(numberRangeCondition(null, null), null);
});

test('select all: checked, indeterminate or unchecked; a radio toggles off', () => {
  assert.equal(selectAllState(0, 5), 'unchecked');
  assert.equal(selectAllState(2, 5), 'indeterminate');
  assert.equal(selectAllState(5, 5), 'checked');
  assert.equal(selectAllState(0, 0), 'unchecked');
  assert.equal(toggleRadio('a', 'a'), null);
  assert.equal(toggleRadio('a', 'b'), 'b');
  assert.equal(toggleRadio(null, 'b'), 'b');
});

test('a date range needs exactly two values', () => {
  assert.equal(validDateRange(['2024-01-01', '2024-02-01']), true);
  assert.equal(validDateRange(['2024-01-01']), false);
  assert.equal(validDateRange(['2024-01-01', '2024-02-01', '2024-03-01']), false);
  assert.equal(validDateRange(['2024-01-01', '']), false);
  assert.equal(widgetCondition('date', { type: 'daterange' }, ['2024-01-01']), null);
  assert.deepEqual(widgetCondition('date', { type: 'daterange' }, ['2024-01-01', '2024-01-31']), { operator: 'between', value: ['2024-01-01', '2024-01-31'] });
});

test('dynamic dates: today, yesterday, month start, offsets, weeks, quarters and years', () => {
  const day = new Date(2024, 4, 15); // Wednesday 15 May 2024
  assert.deepEqual(dynamicDates({ dkey: 'today' }, day), ['2024-05-15']);
  assert.deepEqual(dynamicDates({ dkey: 0 }, day), ['2024-05-15']);
  assert.deepEqual(dynamicDates({ dkey: 'yesterday' }, day), ['2024-05-14']);
  assert.deepEqual(dynamicDates({ dkey: 'monthStart' }, day), ['2024-05-01']);
  assert.deepEqual(dynamicDates({ dkey: 'custom', dynamicPrefix: 2, dynamicInfill: 'week', dynamicSuffix: 'before' }, day), ['2024-05-01']);
  assert.deepEqual(dynamicDates({ dkey: 'custom', dynamicPrefix: 1, dynamicInfill: 'month', dynamicSuffix: 'after' }, new Date(2024, 0, 31)), ['2024-02-29']);
  assert.deepEqual(dynamicDates({ dkey: 'custom', dynamicPrefix: 1, dynamicInfill: 'year', dynamicSuffix: 'before' }, day), ['2023-05-15']);
  assert.deepEqual(dynamicDates({ dkey: 'thisWeek' }, day), ['2024-05-13', '2024-05-19']);
  assert.deepEqual(dynamicDates({ dkey: 'lastWeek' }, day), ['2024-05-06', '2024-05-12']);
  assert.deepEqual(dynamicDates({ dkey: 'thisMonth' }, day), ['2024-05-01', '2024-05-31']);
  assert.deepEqual(dynamicDates({ dkey: 'lastMonth' }, day), ['2024-04-01', '2024-04-30']);
  assert.deepEqual(dynamicDates({ dkey: 'thisQuarter' }, day), ['2024-04-01', '2024-06-30']);
  assert.deepEqual(dynamicDates({ dkey: 'lastQuarter' }, day), ['2024-01-01', '2024-03-31']);
  assert.deepEqual(dynamicDates({ dkey: 'thisYear' }, day), ['2024-01-01', '2024-12-31']);
  assert.deepEqual(dynamicDates({ dkey: 'lastYear' }, day), ['2023-01-01', '2023-12-31']);
  assert.deepEqual(dynamicDates({ dkey: 'customRange', dynamicPrefix: 3, dynamicInfill: 'day', dynamicSuffix: 'before' }, day), ['2024-05-12', '2024-05-15']);
});

test('widget kinds from the component and service names', () => {
  assert.equal(widgetKind(comp('de-select')), 'select');
  assert.equal(widgetKind(comp('de-date')), 'date');
  assert.equal(widgetKind(comp('de-number-range')), 'number-range');
  assert.equal(widgetKind(comp('de-input-search')), 'text');
  assert.equal(widgetKind({ type: 'custom-button', component: 'de-button', serviceName: 'buttonSureWidget' }), 'search');
  assert.equal(widgetKind({ type: 'custom-button', component: 'de-button', serviceName: 'buttonResetWidget' }), 'reset');
  assert.equal(widgetKind({ type: 'custom-button', component: 'de-button', serviceName: 'buttonExportWidget' }), 'export');
});

test('widget filters: one per bound field, with the widget\'s views; eq, in, like', () => {
  const single = comp('de-select', { fieldId: 'a,b', filterIds: ['v1'] });
  assert.deepEqual(widgetFilters(single, 'East'), [
    { componentId: 'w-de-select', fieldId: 'a', operator: 'eq', value: ['East'], viewIds: ['v1'] },
    { componentId: 'w-de-select', fieldId: 'b', operator: 'eq', value: ['East'], viewIds: ['v1'] },
  ]);
  const multi = comp('de-select', { fieldId: 'a', multiple: true });
  assert.deepEqual(widgetFilters(multi, ['East', 'West']), [{ componentId: 'w-de-select', fieldId: 'a', operator: 'in', value: ['East', 'West'], viewIds: undefined }]);
  assert.deepEqual(widgetFilters(multi, []), []);
  assert.deepEqual(widgetFilters(comp('de-input-search', { fieldId: 'p' }), ' chair ')[0].value, ['chair']);
  assert.equal(widgetFilters(comp('de-input-search', { fieldId: 'p' }), ' ')[0], undefined);
  assert.equal(widgetFilters(comp('de-number-range', { fieldId: 'q' }), [1, null])[0].operator, 'ge');
});

test('filters reach the views they name, or every view', () => {
  const f = [
    { fieldId: 'a', operator: 'eq' as const, value: [1], viewIds: ['v1'] },
    { fieldId: 'b', operator: 'eq' as const, value: [2] },
  ];
  assert.deepEqual(filtersForView(f, 'v1').map((x) => x.fieldId), ['a', 'b']);
  assert.deepEqual(filtersForView(f, 'v2').map((x) => x.fieldId), ['b']);
});

test('initial values: a dynamic default date, stored values; reset values are empty', () => {
  const date = comp('de-date', { type: 'daterange', fieldId: 'd', default: { isDynamic: true, dkey: 'lastYear' } });
  assert.deepEqual(initialValue(date, new Date(2024, 4, 15)), ['2023-01-01', '2023-12-31']);
  assert.deepEqual(emptyValue(date), []);
  const sel = comp('de-select', { multiple: true }, { options: { attrs: { multiple: true }, value: ['x'] } });
  assert.deepEqual(initialValue(sel), ['x']);
  assert.deepEqual(emptyValue(sel), []);
  assert.deepEqual(initialValue(comp('de-number-range')), [null, null]);
});
