/**
 * The designer's 24-column grid and the viewer's component style (left/top/width/height in the panel's
 * design units, src/model/layout.ts), converted both ways. The canvas draws rows at the height the viewer
 * gives them (the horizontal scale times 115 percent), so a published panel looks as designed.
 */
import { DEFAULT_PANEL_WIDTH, VERTICAL_FACTOR, panelScale } from '../../model/layout';
import type { ComponentStyle, PanelComponent } from '../../model/types';

export const GRID_COLUMNS = 24;
/** Design units (of style.top and style.height) one grid row stands for. */
export const ROW_UNITS = 10;

export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** Design units one column stands for. */
export function columnUnits(panelWidth: number | undefined): number {
  return (panelWidth && panelWidth > 0 ? panelWidth : DEFAULT_PANEL_WIDTH) / GRID_COLUMNS;
}

/** The grid cell nearest to a component's style. */
export function gridFromStyle(id: string, style: Partial<ComponentStyle> | undefined, panelWidth?: number): GridItem {
  const col = columnUnits(panelWidth);
  const x = clamp(Math.round((Number(style?.left) || 0) / col), 0, GRID_COLUMNS - 1);
  const w = clamp(Math.round((Number(style?.width) || col) / col), 1, GRID_COLUMNS - x);
  const y = Math.max(0, Math.round((Number(style?.top) || 0) / ROW_UNITS));
  const h = Math.max(1, Math.round((Number(style?.height) || ROW_UNITS) / ROW_UNITS));
  return { i: id, x, y, w, h };
}

/** The style box of a grid cell. */
export function boxFromGrid(item: Pick<GridItem, 'x' | 'y' | 'w' | 'h'>, panelWidth?: number): Pick<ComponentStyle, 'left' | 'top' | 'width' | 'height'> {
  const col = columnUnits(panelWidth);
  return { left: Math.round(item.x * col), top: item.y * ROW_UNITS, width: Math.round(item.w * col), height: item.h * ROW_UNITS };
}

const sameCell = (a: Omit<GridItem, 'i'>, b: Omit<GridItem, 'i'>) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** The style after a move: unchanged when the component still sits in the cell its style rounds to
 * (a panel made elsewhere keeps its exact places until a component is moved). */
export function placeStyle(style: ComponentStyle, item: GridItem, panelWidth?: number): ComponentStyle {
  if (sameCell(gridFromStyle(item.i, style, panelWidth), item)) return style;
  return { ...style, ...boxFromGrid(item, panelWidth) };
}

/** Pixels of one canvas row at a canvas width: what the viewer gives ROW_UNITS at that width. */
export function canvasRowHeight(canvasWidth: number, panelWidth?: number): number {
  return ROW_UNITS * panelScale(canvasWidth, panelWidth) * VERTICAL_FACTOR;
}

export function layoutOf(components: PanelComponent[], panelWidth?: number): GridItem[] {
  return components.map((c) => gridFromStyle(c.id, c.style, panelWidth));
}

/** Components placed by a grid layout; the same list when nothing moved (the grid reports its layout on mount too). */
export function applyLayout(components: PanelComponent[], layout: readonly GridItem[], panelWidth?: number): PanelComponent[] {
  const byId = new Map(layout.map((l) => [l.i, l]));
  let changed = false;
  const next = components.map((c) => {
    const item = byId.get(c.id);
    if (!item) return c;
    const style = placeStyle(c.style, item, panelWidth);
    if (style === c.style) return c;
    changed = true;
    return { ...c, style };
  });
  return changed ? next : components;
}

/** The first free row below every item. */
export function bottomRow(layout: readonly Pick<GridItem, 'y' | 'h'>[]): number {
  return layout.reduce((m, l) => Math.max(m, l.y + l.h), 0);
}

// ---------------------------------------------------------------------------------------------------------
// inside tabs (spec 2.3: 24 columns, rows of 30, margins of 10): the grid cell is stored on the component
// ---------------------------------------------------------------------------------------------------------

export function tabItemOf(c: PanelComponent, index: number): GridItem {
  const gridded = c.x !== undefined || c.w !== undefined;
  if (gridded) return { i: c.id, x: Number(c.x) || 0, y: Number(c.y) || 0, w: Number(c.w) || GRID_COLUMNS, h: Number(c.h) || 8 };
  return { i: c.id, x: 0, y: index * 10, w: GRID_COLUMNS, h: 9 };
}

/** Tab content placed by its grid; the same list when nothing moved. */
export function applyTabLayout(items: PanelComponent[], layout: readonly GridItem[]): PanelComponent[] {
  const byId = new Map(layout.map((l) => [l.i, l]));
  let changed = false;
  const next = items.map((c, index) => {
    const item = byId.get(c.id);
    if (!item) return c;
    const was = tabItemOf(c, index);
    const placed = c.x !== undefined || c.w !== undefined;
    if (placed && sameCell(was, item)) return c;
    changed = true;
    return { ...c, x: item.x, y: item.y, w: item.w, h: item.h };
  });
  return changed ? next : items;
}
