import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canRedo, canUndo, HISTORY_LIMIT, record, redo, startHistory, undo } from '../../../web-plugins/reports/src/designer/panel/history';
import { addToTab, allComponents, createComponent, findComponent, removeComponent, updateComponent } from '../../../web-plugins/reports/src/designer/panel/components';

test('undo and redo walk the recorded states', () => {
  let h = startHistory('a');
  assert.equal(canUndo(h), false);
  h = record(h, 'b');
  h = record(h, 'c');
  assert.equal(h.present, 'c');
  h = undo(h);
  assert.equal(h.present, 'b');
  h = undo(h);
  assert.equal(h.present, 'a');
  assert.equal(canUndo(h), false);
  assert.equal(undo(h), h, 'nothing to undo: unchanged');
  h = redo(h);
  assert.equal(h.present, 'b');
  assert.equal(canRedo(h), true);
});

test('a new change after undo drops the redo branch', () => {
  let h = record(record(startHistory(1), 2), 3);
  h = undo(h);
  h = record(h, 4);
  assert.equal(h.present, 4);
  assert.equal(canRedo(h), false);
  assert.deepEqual(h.past, [1, 2]);
});

test('an unchanged state records nothing', () => {
  const h = record(startHistory({ n: 1 }), { n: 2 });
  assert.equal(record(h, h.present), h);
});

test('changes with the same key make one step; another key or an undo starts a new one', () => {
  let h = startHistory('');
  for (const text of ['S', 'Sa', 'Sal', 'Sale', 'Sales']) h = record(h, text, 'name');
  assert.equal(h.present, 'Sales');
  assert.deepEqual(h.past, ['']);
  h = record(h, 'Sales!', 'title');
  assert.deepEqual(h.past, ['', 'Sales']);
  h = undo(h);
  h = record(h, 'Sales?', 'title');
  assert.deepEqual(h.past, ['', 'Sales'], 'after an undo the same key is a new step');
  assert.equal(undo(h).present, 'Sales');
});

test('history keeps at most the limit of past states', () => {
  let h = startHistory(0);
  for (let i = 1; i <= HISTORY_LIMIT + 20; i += 1) h = record(h, i);
  assert.equal(h.past.length, HISTORY_LIMIT);
  assert.equal(h.past[0], 20);
});

test('component edits reach components inside tab panes', () => {
  const texts = { title: 'T', tabTitle: 'Tab 1' };
  const tabs = createComponent('de-tabs', texts);
  const text = createComponent('v-text', texts);
  const pane = tabs.options!.tabList![0].name;
  let list = addToTab([tabs], tabs.id, pane, text, { w: 8, h: 6 });
  assert.equal(allComponents(list).length, 2);
  const inside = findComponent(list, text.id)!;
  assert.deepEqual([inside.x, inside.y, inside.w], [0, 0, 8]);
  list = updateComponent(list, text.id, (c) => ({ ...c, propValue: 'changed' }));
  assert.equal(findComponent(list, text.id)!.propValue, 'changed');
  assert.equal(updateComponent(list, 'missing', (c) => c), list, 'no match: the same list');
  list = removeComponent(list, text.id);
  assert.equal(findComponent(list, text.id), undefined);
  assert.equal(allComponents(list).length, 1);
});

test('every palette type makes a component the viewer recognises', async () => {
  const { widgetKind } = await import('../../../web-plugins/reports/src/model/filters');
  const kinds = ['select', 'date', 'number-range', 'input', 'search', 'reset', 'export'].map((type) => widgetKind(createComponent(type as never, { title: 'x' })));
  assert.deepEqual(kinds, ['select', 'date', 'number-range', 'text', 'search', 'reset', 'export']);
});
