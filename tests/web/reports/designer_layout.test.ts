import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyLayout, applyTabLayout, boxFromGrid, bottomRow, canvasRowHeight, gridFromStyle, layoutOf, ROW_UNITS,
} from '../../../web-plugins/reports/src/designer/panel/gridLayout';
import { panelScale, scaleBox, gridBox } from '../../../web-plugins/reports/src/model/layout';
import type { PanelComponent } from '../../../web-plugins/reports/src/model/types';

const comp = (id: string, left: number, top: number, width: number, height: number): PanelComponent => ({ id, type: 'v-text', style: { left, top, width, height } });

test('a grid cell becomes the style the viewer reads, in the panel design width', () => {
  // 1600 wide: a column is 1600/24 units, a row 10 units
  assert.deepEqual(boxFromGrid({ x: 6, y: 3, w: 12, h: 30 }, 1600), { left: 400, top: 30, width: 800, height: 300 });
  assert.deepEqual(boxFromGrid({ x: 0, y: 0, w: 24, h: 1 }, 1200), { left: 0, top: 0, width: 1200, height: ROW_UNITS });
  // the default design width when the panel has none
  assert.deepEqual(boxFromGrid({ x: 12, y: 0, w: 12, h: 2 }, undefined), { left: 800, top: 0, width: 800, height: 20 });
});

test('a style rounds to the nearest cell and stays inside the 24 columns', () => {
  assert.deepEqual(gridFromStyle('a', { left: 400, top: 30, width: 800, height: 300 }, 1600), { i: 'a', x: 6, y: 3, w: 12, h: 30 });
  // the demo's select: 300 wide is 4.5 columns
  assert.deepEqual(gridFromStyle('b', { left: 310, top: 0, width: 380, height: 60 }, 1600), { i: 'b', x: 5, y: 0, w: 6, h: 6 });
  assert.deepEqual(gridFromStyle('c', { left: 1590, top: 0, width: 500, height: 4 }, 1600), { i: 'c', x: 23, y: 0, w: 1, h: 1 });
});

test('the canvas draws a component where the viewer will, at any width', () => {
  for (const canvasWidth of [900, 1100, 1600]) {
    const cell = { x: 6, y: 12, w: 8, h: 25 };
    const style = boxFromGrid(cell, 1600);
    const viewer = scaleBox(style, panelScale(canvasWidth, 1600));
    const colWidth = canvasWidth / 24;
    const row = canvasRowHeight(canvasWidth, 1600);
    assert.ok(Math.abs(viewer.left - cell.x * colWidth) <= 1, `left at ${canvasWidth}`);
    assert.ok(Math.abs(viewer.top - cell.y * row) <= 1, `top at ${canvasWidth}`);
    assert.ok(Math.abs(viewer.width - cell.w * colWidth) <= 1, `width at ${canvasWidth}`);
    assert.ok(Math.abs(viewer.height - cell.h * row) <= 1, `height at ${canvasWidth}`);
  }
});

test('applying a layout moves what moved and keeps exact styles of what did not', () => {
  const list = [comp('a', 310, 0, 380, 60), comp('b', 0, 100, 800, 300)];
  const layout = layoutOf(list, 1600);
  assert.equal(applyLayout(list, layout, 1600), list, 'nothing moved: the same list');
  const moved = applyLayout(list, [layout[0], { ...layout[1], x: 12, h: 20 }], 1600);
  assert.notEqual(moved, list);
  assert.equal(moved[0], list[0], 'the unmoved component keeps its exact style');
  assert.deepEqual(moved[1].style, { left: 800, top: 100, width: 800, height: 200 });
});

test('bottomRow is the first free row', () => {
  assert.equal(bottomRow([]), 0);
  assert.equal(bottomRow([{ y: 0, h: 6 }, { y: 10, h: 30 }, { y: 4, h: 2 }]), 40);
});

test('tab content keeps its cell on the component, as the viewer\'s tabs grid reads it', () => {
  const items: PanelComponent[] = [{ ...comp('t1', 0, 0, 0, 0), x: 0, y: 0, w: 12, h: 8 }, comp('t2', 0, 0, 0, 0)];
  const same = applyTabLayout(items, [{ i: 't1', x: 0, y: 0, w: 12, h: 8 }]);
  assert.equal(same, items);
  const next = applyTabLayout(items, [{ i: 't1', x: 12, y: 0, w: 12, h: 8 }, { i: 't2', x: 0, y: 10, w: 24, h: 9 }]);
  assert.deepEqual([next[0].x, next[0].w, next[1].x, next[1].y, next[1].w, next[1].h], [12, 12, 0, 10, 24, 9]);
  // the viewer's grid: 24 columns, rows 30, margins 10
  assert.deepEqual(gridBox(next[0], 1000), { left: 505, top: 10, width: 485, height: 310 });
});
