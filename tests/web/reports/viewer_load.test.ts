import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api } from '../../../web-plugins/reports/src/api';
import { buildEchartsOption } from '../../../web-plugins/reports/src/charts/echartsOptions';
import { dataBody, FIRST_QUERY } from '../../../web-plugins/reports/src/panel/dataBody';
import { firstShownViews, ViewPrefetch } from '../../../web-plugins/reports/src/panel/prefetch';
import { openPanel, prefetchPanel } from '../../../web-plugins/reports/src/panel/opening';
import { drawsChart } from '../../../web-plugins/reports/src/charts/loaders';
import type { PanelComponent } from '../../../web-plugins/reports/src/model/types';
import type { PanelState } from '../../../web-plugins/reports/src/panel/store';
import { ONE, view } from './fixtures';

const viewOf = (id: string): PanelComponent => ({ id: `c-${id}`, type: 'view', style: {}, propValue: { viewId: id } }) as unknown as PanelComponent;

const STATE = {
  values: {},
  applied: {
    w1: [{ componentId: 'w1', fieldId: 'f', operator: 'eq', value: ['East'], viewIds: ['v1'] }],
    w2: [{ componentId: 'w2', fieldId: 'g', operator: 'in', value: ['A'], viewIds: [] }],
  },
  linkage: {},
  drill: {},
  track: [{ componentId: '', fieldId: 't', operator: 'eq', value: ['x'], viewIds: ['v2'] }],
  linkageInfo: {},
  jumps: {},
  epoch: 0,
} as unknown as PanelState;

test('the views drawn when a panel opens: on it and on each tabs widget first tab', () => {
  const tabs = {
    id: 't', type: 'de-tabs', style: {},
    options: { tabList: [{ name: 'a', title: 'A', content: [viewOf('v3')] }, { name: 'b', title: 'B', content: viewOf('v4') }] },
  } as unknown as PanelComponent;
  assert.deepEqual(firstShownViews([viewOf('v1'), tabs, viewOf('v2'), viewOf('v1')]), ['v1', 'v3', 'v2']);
});

test('the getData body of a view: its filters, the track, the page, the sort and the size', () => {
  const first = dataBody('v1', STATE, [], FIRST_QUERY, undefined);
  assert.deepEqual(first, {
    filter: [STATE.applied.w1[0], STATE.applied.w2[0]],
    linkageFilters: [],
    urlFilter: [],
    drill: [],
    queryFrom: 'panel',
    cache: true,
    goPage: 1,
  });
  const later = dataBody('v2', STATE, [{ fieldId: 'd', value: ['East'], label: 'East' }], { page: 3, sort: { key: 'k', fieldId: 'f', order: 'desc' }, pageSize: 50 }, { user: 7 });
  assert.deepEqual(later.filter, [STATE.applied.w2[0]]);
  assert.deepEqual(later.urlFilter, STATE.track);
  assert.deepEqual(later.drill, [{ fieldId: 'd', value: ['East'] }]);
  assert.equal(later.goPage, 3);
  assert.equal(later.pageSize, 50);
  assert.deepEqual(later.sort, [{ fieldId: 'f', key: 'k', sort: 'desc' }]);
  assert.equal(later.user, 7);
  assert.equal(dataBody('v2', STATE, [], { page: 1, sort: { key: 'k', order: 'none' } }, undefined).sort, undefined);
});

test('a view takes the answer started with the panel once, and only for the same body', async () => {
  const calls: string[] = [];
  const saved = { view: api.view, data: api.data };
  api.view = ((id: string) => {
    calls.push(`view ${id}`);
    return Promise.resolve({ id } as never);
  }) as typeof api.view;
  api.data = ((id: string) => {
    calls.push(`data ${id}`);
    return Promise.resolve((id === 'v3' ? { id, success: false } : { id, success: true, data: { x: [] } }) as never);
  }) as typeof api.data;
  try {
    const prefetch = new ViewPrefetch('p', undefined);
    prefetch.start(['v1', 'v2', 'v3'], STATE);
    // the data calls only: a definition is asked on its own only for a view whose data call failed
    assert.deepEqual(calls, ['data v1', 'data v2', 'data v3']);
    const key = JSON.stringify(dataBody('v1', STATE, [], FIRST_QUERY, undefined));
    assert.ok(prefetch.takeData('v1', key));
    assert.equal(prefetch.takeData('v1', key), undefined);
    assert.equal(prefetch.takeData('v2', '{}'), undefined);
    assert.equal(prefetch.takeData('v2', JSON.stringify(dataBody('v2', STATE, [], FIRST_QUERY, undefined))), undefined);
    await prefetch.settled();
    assert.equal((await prefetch.view('v1')).success, true);
    assert.deepEqual(calls.slice(3), ['view v3']);
    await prefetch.view('v3');
    await prefetch.view('v1');
    assert.deepEqual(calls.slice(3), ['view v3', 'view v1']);
  } finally {
    Object.assign(api, saved);
  }
});

test('a panel clicked in the list: its definition asked for with the click, its views data as soon as it arrives, taken once', async () => {
  const calls: string[] = [];
  const saved = { panel: api.panel, data: api.data };
  api.panel = ((id: string) => {
    calls.push(`panel ${id}`);
    return Promise.resolve({ id, name: 'P', panelData: JSON.stringify([viewOf('v1'), viewOf('v2')]), panelStyle: '{}' } as never);
  }) as typeof api.panel;
  api.data = ((id: string) => {
    calls.push(`data ${id}`);
    return Promise.resolve({ id, success: true, data: { x: [] } } as never);
  }) as typeof api.data;
  try {
    prefetchPanel('p');
    assert.deepEqual(calls, ['panel p']);
    const opened = await openPanel('p');
    // the data calls left with the definition's answer, not with the page's render
    assert.deepEqual(calls, ['panel p', 'data v1', 'data v2']);
    assert.deepEqual(opened.store.env.viewIds, ['v1', 'v2']);
    const key = JSON.stringify(dataBody('v1', opened.store.state, [], FIRST_QUERY, undefined));
    assert.ok(opened.store.calls.takeData('v1', key));
    // a second opening asks again: what the first one started is taken once
    const again = await openPanel('p');
    assert.notEqual(again.store, opened.store);
    assert.deepEqual(calls.slice(3), ['panel p', 'data v1', 'data v2']);
  } finally {
    Object.assign(api, saved);
  }
});

test('the chart chunks a view needs: none for tables, texts and labels', () => {
  for (const type of ['bar', 'map', 'word-cloud', 'gauge']) assert.equal(drawsChart(type), true, type);
  for (const type of ['table-info', 'table-normal', 'table-pivot', 'text', 'label', '', undefined]) assert.equal(drawsChart(type), false, String(type));
});

test('every echarts series draws at once the first time (a pie brings its own second otherwise)', () => {
  for (const kind of ['pie', 'pie-rose', 'bar', 'line', 'funnel']) {
    const { option } = buildEchartsOption(view(kind, 'echarts'), ONE);
    assert.equal(option.animationDuration, 0, kind);
    for (const s of option.series) assert.equal(s.animationDuration, 0, kind);
  }
});
