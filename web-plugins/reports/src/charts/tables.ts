/**
 * Tables (spec 2.3, 4, 9): columns and rows of table-info, table-normal and table-pivot, the sort cycle,
 * the pager window and the table colours. Pure: the React table only draws what these return.
 */
import type { ChartData, DataField, PivotData, ValueFormat } from '../model/types';
import { DEFAULTS, columnFormat, formatValue, isObject, num, thresholdColor, type Json, type Styles, type Threshold } from './common';

export const TABLE_KINDS = ['table-info', 'table-normal', 'table-pivot'] as const;

export type SortOrder = 'asc' | 'desc' | 'none';

/** Spec 4: a header click cycles ascending, descending, none. */
export function nextSort(current: SortOrder | undefined): SortOrder {
  if (current === 'asc') return 'desc';
  if (current === 'desc') return 'none';
  return 'asc';
}

export interface TableColumn {
  key: string;
  title: string;
  fieldId?: string;
  numeric: boolean;
  children?: TableColumn[];
  /** Format a cell of this column. */
  format?: (v: unknown) => string;
}

export interface TableModel {
  columns: TableColumn[];
  rows: Record<string, unknown>[];
  /** Number of rows in all (server side for table-info). */
  total: number;
}

function isNumericField(f: DataField): boolean {
  return !!f.summary || f.type === 'integer' || f.type === 'float' || f.axis === 'yaxis' || f.axis === 'yaxisExt';
}

/** A timestamp as a database may hand it over as text: "2026-11-28 12:38:00.000000" or with a "T". */
const STORED_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?$/;

/** A text cell's words; a stored timestamp reads to the second. */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const stamp = typeof value === 'string' ? STORED_TIMESTAMP.exec(text) : null;
  return stamp ? `${stamp[1]} ${stamp[2]}` : text;
}

/** A column of a field; numbers in one format for the whole column (the field's, or the decimals of its most
 * precise value), with the locale's separators. */
function columnOf(f: DataField, rows: Record<string, unknown>[], locale?: string): TableColumn {
  const numeric = isNumericField(f);
  const key = f.key || f.dataeaseName || f.id;
  const vf = numeric ? columnFormat(rows.map((r) => r[key]), f.valueFormat) : undefined;
  return {
    key,
    title: f.name,
    fieldId: f.id,
    numeric,
    format: numeric ? (v) => formatValue(v, vf, locale) : plainText,
  };
}

/** Sorts rows on a column (numbers numerically, text by locale); `none` keeps the server's order. */
export function sortRows(rows: Record<string, unknown>[], key: string | undefined, order: SortOrder): Record<string, unknown>[] {
  if (!key || order === 'none') return rows;
  const dir = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
    return String(x).localeCompare(String(y), undefined, { numeric: true }) * dir;
  });
}

/** table-info and table-normal: one column per field, the rows as the server sent them. */
export function flatTable(data: ChartData | undefined, locale?: string): TableModel {
  const fields = Array.isArray(data?.fields) ? data!.fields : [];
  const rows = Array.isArray(data?.tableRow) ? data!.tableRow : [];
  return { columns: fields.map((f) => columnOf(f, rows, locale)), rows, total: typeof data?.resultTotal === 'number' ? data.resultTotal : rows.length };
}

/** table-pivot: row dimensions down, a column group per column-dimension path, a total column and row. */
export function pivotTable(data: ChartData | undefined, totalTitle = 'Total', locale?: string): TableModel {
  const pivot: PivotData | undefined = data?.pivot;
  const fields = Array.isArray(data?.fields) ? data!.fields : [];
  if (!pivot) return flatTable(data, locale);
  const byKey = new Map(fields.map((f) => [f.key, f]));
  // one format per quota over all its columns (values and totals), set once the rows are there
  const formats = new Map<string, ValueFormat | null | undefined>();
  const quotaFormat = (q: string) => (v: unknown) => formatValue(v, formats.has(q) ? formats.get(q) : byKey.get(q)?.valueFormat, locale);
  const rowCols: TableColumn[] = pivot.rowFields.map((k) => {
    const f = byKey.get(k);
    return { key: `r:${k}`, title: f?.name ?? k, fieldId: f?.id, numeric: false, format: (v) => (v === null || v === undefined ? '' : String(v)) };
  });
  const valueCol = (c: { key: string; name: string; quota: string }, title: string): TableColumn => {
    const f = byKey.get(c.quota);
    return { key: `v:${c.key}`, title, fieldId: f?.id, numeric: true, format: quotaFormat(c.quota) };
  };
  // group the value columns by their column-dimension path
  const groups: TableColumn[] = [];
  const index = new Map<string, TableColumn>();
  for (const c of pivot.columns) {
    const path = c.path.map((p) => (p === null || p === undefined ? '' : String(p)));
    if (!path.length) {
      groups.push(valueCol(c, c.name));
      continue;
    }
    let level = groups;
    let prefix = '';
    for (const part of path) {
      prefix = `${prefix}|${part}`;
      let g = index.get(prefix);
      if (!g) {
        g = { key: `g:${prefix}`, title: part, numeric: false, children: [] };
        index.set(prefix, g);
        level.push(g);
      }
      level = g.children!;
    }
    level.push(valueCol(c, c.name));
  }
  const hasTotals = pivot.columnFields.length > 0 && pivot.rows.some((r) => r.total && Object.keys(r.total).length);
  const totalCols: TableColumn[] = hasTotals
    ? pivot.quotaFields.map((q) => {
        const f = byKey.get(q);
        return { key: `t:${q}`, title: `${totalTitle} ${f?.name ?? q}`.trim(), fieldId: f?.id, numeric: true, format: quotaFormat(q) };
      })
    : [];
  const rows = pivot.rows.map((r) => {
    const rec: Record<string, unknown> = {};
    pivot.rowFields.forEach((k, i) => (rec[`r:${k}`] = r.rowKeys[i]));
    for (const [k, v] of Object.entries(r.values || {})) rec[`v:${k}`] = v;
    for (const [k, v] of Object.entries(r.total || {})) rec[`t:${k}`] = v;
    return rec;
  });
  if (pivot.columnTotals && Object.keys(pivot.columnTotals).length) {
    const rec: Record<string, unknown> = { __total: true };
    if (pivot.rowFields.length) rec[`r:${pivot.rowFields[0]}`] = totalTitle;
    for (const [k, v] of Object.entries(pivot.columnTotals)) rec[`v:${k}`] = v;
    for (const [k, v] of Object.entries(pivot.grandTotal || {})) rec[`t:${k}`] = v;
    rows.push(rec);
  }
  for (const q of pivot.quotaFields) {
    const keys = [...pivot.columns.filter((c) => c.quota === q).map((c) => `v:${c.key}`), `t:${q}`];
    formats.set(q, columnFormat(rows.flatMap((r) => keys.map((k) => r[k])), byKey.get(q)?.valueFormat));
  }
  return { columns: [...rowCols, ...groups, ...totalCols], rows, total: rows.length };
}

/** Leaf columns, left to right. */
export function leafColumns(columns: TableColumn[]): TableColumn[] {
  return columns.flatMap((c) => (c.children ? leafColumns(c.children) : [c]));
}

/** Spec 9: the pager shows 5 page numbers around the current page. */
export function pagerPages(current: number, pageCount: number, window = DEFAULTS.pagerPages): number[] {
  if (pageCount <= 0) return [];
  const n = Math.min(window, pageCount);
  let start = Math.max(1, current - Math.floor(n / 2));
  if (start + n - 1 > pageCount) start = pageCount - n + 1;
  return Array.from({ length: n }, (_, i) => start + i);
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, size)));
}

/** The page size of a table view: customAttr.size.tablePageSize, else the view's, else 20 (spec 9). */
export function tablePageSize(attr: Json, viewPageSize?: number): number {
  const size = isObject(attr.size) ? attr.size : {};
  return Math.max(1, Math.round(num(size.tablePageSize, viewPageSize || DEFAULTS.tablePageSize)));
}

export interface TableLook {
  headerBg: string;
  headerColor: string;
  itemBg: string;
  itemColor: string;
  stripe?: string;
  border: string;
  headerFontSize: number;
  itemFontSize: number;
  rowHeight: number;
}

/** Table colours and sizes from customAttr.color / tableColor / size (panel colours when it has priority). */
export function tableLook(s: Styles): TableLook {
  const color = isObject(s.attr.color) ? s.attr.color : {};
  const tc = isObject(s.attr.tableColor) ? s.attr.tableColor : {};
  const size = isObject(s.attr.size) ? s.attr.size : {};
  return {
    headerBg: tc.tableHeaderBgColor || color.tableHeaderBgColor || '#4E81BB',
    headerColor: tc.tableHeaderFontColor || color.tableHeaderFontColor || color.tableFontColor || '#ffffff',
    itemBg: tc.tableItemBgColor || color.tableItemBgColor || '#ffffff',
    itemColor: tc.tableFontColor || color.tableFontColor || '#1f2533',
    stripe: tc.tableStripe || color.tableStripe,
    border: tc.tableBorderColor || color.tableBorderColor || '#e6e9f0',
    headerFontSize: num(size.tableTitleFontSize, 12),
    itemFontSize: num(size.tableItemFontSize, 12),
    rowHeight: num(size.tableItemHeight, DEFAULTS.tableRowHeight),
  };
}

/** The colour a threshold gives a cell (tables keep the rule's field, if any). */
export function cellColor(value: unknown, column: TableColumn, threshold: Threshold): string | undefined {
  if (!column.numeric) return undefined;
  return thresholdColor(value, threshold, column.fieldId);
}

/** Plain text of a cell (what right-click copies). */
export function cellText(value: unknown, column: TableColumn): string {
  return column.format ? column.format(value) : plainText(value);
}
