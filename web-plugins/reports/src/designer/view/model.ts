/**
 * The view being edited and the pure operations on it: fields dropped into axes, chip settings, and the
 * view object chart/view/save and calcData take (customAttr / customStyle as JSON text).
 */
import { parseJson, isObject, type Json } from '../../charts/common';
import type { AxisItem, ChartView, FilterItem } from '../../model/types';
import type { DatasetField } from '../data/types';
import { engineDraws, isSingleValueKind, isTableKind, isTextKind, type Render } from './kinds';

export const AXIS_ZONES = ['xaxis', 'xaxisExt', 'yaxis', 'yaxisExt', 'extBubble', 'drillFields'] as const;
export type AxisZone = (typeof AXIS_ZONES)[number];
export type Zone = AxisZone | 'customFilter';
export const ZONES: readonly Zone[] = [...AXIS_ZONES, 'customFilter'];

export const QUOTA_ZONES: readonly AxisZone[] = ['yaxis', 'yaxisExt', 'extBubble'];
export const SUMMARIES = ['sum', 'avg', 'count', 'count_distinct', 'max', 'min'] as const;
export type Summary = (typeof SUMMARIES)[number];
export const SORTS = ['none', 'asc', 'desc'] as const;
export const DATE_STYLES = ['y', 'y_Q', 'y_M', 'y_M_d', 'H_m_s', 'y_M_d_H_m', 'y_M_d_H_m_s'] as const;
export const FILTER_OPERATORS = ['eq', 'in', 'like', 'ge', 'le', 'between'] as const;

/** The pseudo quota "record count", usable in any view. */
export const COUNT_ID = 'count';

/** What the field palette offers: the dataset's ticked fields plus the record count. */
export interface PaletteField {
  id: string;
  name: string;
  dataeaseName: string;
  type: string;
  role: 'dimension' | 'quota';
}

export interface EditorAxis extends AxisItem {
  dateStyle?: string;
  /** The name shown in the chart instead of the field's. */
  name?: string;
}

export interface ViewDraft {
  id?: string;
  panelId: string;
  tableId?: string;
  name: string;
  title: string;
  type: string;
  render: Render;
  stylePriority: string;
  attr: Json;
  style: Json;
  senior: Json;
  xaxis: EditorAxis[];
  xaxisExt: EditorAxis[];
  yaxis: EditorAxis[];
  yaxisExt: EditorAxis[];
  extBubble: EditorAxis[];
  drillFields: EditorAxis[];
  customFilter: FilterItem[];
  resultMode: 'all' | 'custom';
  resultCount: number;
  pageSize: number;
}

export const DEFAULT_RESULT_COUNT = 1000;
export const DEFAULT_PAGE_SIZE = 20;

function axisList(v: unknown): EditorAxis[] {
  return Array.isArray(v) ? v.filter((a): a is EditorAxis => isObject(a) && typeof a.id === 'string') : [];
}

/** The editor's copy of a saved view, or a new bar chart on the panel. */
export function draftFromView(view: (ChartView & { tableId?: string; customFilter?: FilterItem[] }) | null | undefined, panelId: string): ViewDraft {
  const render: Render = view?.render === 'antv' ? 'antv' : 'echarts';
  return {
    id: view?.id || undefined,
    panelId: view?.panelId || panelId,
    tableId: view?.tableId || undefined,
    name: view?.name || '',
    title: view?.title || '',
    type: view?.type || 'bar',
    render,
    stylePriority: view?.stylePriority || 'view',
    attr: parseJson<Json>(view?.customAttr, {}),
    style: parseJson<Json>(view?.customStyle, {}),
    senior: parseJson<Json>(view?.senior, {}),
    xaxis: axisList(view?.xaxis),
    xaxisExt: axisList(view?.xaxisExt),
    yaxis: axisList(view?.yaxis),
    yaxisExt: axisList(view?.yaxisExt),
    extBubble: axisList(view?.extBubble),
    drillFields: axisList(view?.drillFields),
    customFilter: Array.isArray(view?.customFilter) ? view!.customFilter.filter((f) => isObject(f) && typeof f.fieldId === 'string') : [],
    resultMode: view?.resultMode === 'custom' ? 'custom' : 'all',
    resultCount: view?.resultCount || DEFAULT_RESULT_COUNT,
    pageSize: view?.pageSize || DEFAULT_PAGE_SIZE,
  };
}

/** The view object of chart/view/save and calcData. */
export function viewFromDraft(d: ViewDraft): ChartView & { tableId?: string; customFilter: FilterItem[] } {
  const view: ChartView & { tableId?: string; customFilter: FilterItem[] } = {
    id: d.id || '',
    panelId: d.panelId,
    tableId: d.tableId,
    name: d.name.trim() || d.title.trim(),
    title: d.title.trim() || d.name.trim(),
    type: d.type,
    render: d.render,
    stylePriority: d.stylePriority,
    customAttr: JSON.stringify(d.attr),
    customStyle: JSON.stringify(d.style),
    senior: JSON.stringify(d.senior),
    xaxis: d.xaxis,
    xaxisExt: d.xaxisExt,
    yaxis: d.yaxis,
    yaxisExt: d.yaxisExt,
    extBubble: d.extBubble,
    drillFields: d.drillFields,
    customFilter: d.customFilter,
    resultMode: d.resultMode,
    resultCount: d.resultCount,
    pageSize: d.pageSize,
  };
  if (!d.id) delete (view as Partial<ChartView>).id;
  return view;
}

export function paletteFields(fields: DatasetField[] | undefined, countName: string): PaletteField[] {
  const ticked = (fields || []).filter((f) => f.checked !== false);
  return [
    ...ticked.map((f) => ({ id: f.id, name: f.name, dataeaseName: f.dataeaseName, type: f.type, role: f.role })),
    { id: COUNT_ID, name: countName, dataeaseName: COUNT_ID, type: 'integer', role: 'quota' as const },
  ];
}

export function isQuotaZone(zone: Zone): boolean {
  return (QUOTA_ZONES as readonly string[]).includes(zone);
}

/** Where a field may go: the record count only as a quota; a field once per dimension zone. */
export function canDrop(d: ViewDraft, zone: Zone, field: PaletteField): boolean {
  if (field.id === COUNT_ID) return isQuotaZone(zone);
  if (zone === 'customFilter') return true;
  if (isQuotaZone(zone)) return true;
  return !d[zone].some((a) => a.id === field.id);
}

/** The default aggregation: sum for numbers, count otherwise (as the server defaults). */
export function defaultSummary(field: Pick<PaletteField, 'id' | 'type'>): Summary {
  if (field.id === COUNT_ID) return 'count';
  return field.type === 'integer' || field.type === 'float' ? 'sum' : 'count';
}

export function newAxis(zone: AxisZone, field: PaletteField): EditorAxis {
  const axis: EditorAxis = { id: field.id };
  if (isQuotaZone(zone)) axis.summary = defaultSummary(field);
  else if (field.type === 'time') axis.dateStyle = 'y_M_d';
  return axis;
}

/** The draft with the field added to a zone (at `index`, else at the end). */
export function addField(d: ViewDraft, zone: Zone, field: PaletteField, index?: number): ViewDraft {
  if (!canDrop(d, zone, field)) return d;
  if (zone === 'customFilter') return { ...d, customFilter: [...d.customFilter, { fieldId: field.id, operator: field.type === 'text' ? 'in' : 'eq', value: [] }] };
  const list = [...d[zone]];
  list.splice(index ?? list.length, 0, newAxis(zone, field));
  return { ...d, [zone]: list };
}

/** The draft with an axis item moved to another zone or position; quotas keep their settings between quota zones. */
export function moveItem(d: ViewDraft, from: AxisZone, fromIndex: number, to: AxisZone, toIndex: number, field?: PaletteField): ViewDraft {
  const item = d[from][fromIndex];
  if (!item) return d;
  if (from === to) {
    const list = [...d[from]];
    list.splice(fromIndex, 1);
    list.splice(Math.min(toIndex, list.length), 0, item);
    return { ...d, [from]: list };
  }
  if (!isQuotaZone(to) && d[to].some((a) => a.id === item.id)) return d;
  if (item.id === COUNT_ID && !isQuotaZone(to)) return d;
  let moved: EditorAxis = item;
  if (isQuotaZone(from) !== isQuotaZone(to)) {
    moved = field ? newAxis(to, field) : { id: item.id };
    if (item.name) moved.name = item.name;
  }
  const source = d[from].filter((_, i) => i !== fromIndex);
  const target = [...d[to]];
  target.splice(Math.min(toIndex, target.length), 0, moved);
  return { ...d, [from]: source, [to]: target };
}

export function updateAxis(d: ViewDraft, zone: AxisZone, index: number, patch: Partial<EditorAxis>): ViewDraft {
  return {
    ...d,
    [zone]: d[zone].map((a, i) => {
      if (i !== index) return a;
      const next: EditorAxis = { ...a, ...patch };
      for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
      return next;
    }),
  };
}

export function updateFilter(d: ViewDraft, index: number, patch: Partial<FilterItem>): ViewDraft {
  return { ...d, customFilter: d.customFilter.map((f, i) => (i === index ? { ...f, ...patch } : f)) };
}

export function removeItem(d: ViewDraft, zone: Zone, index: number): ViewDraft {
  if (zone === 'customFilter') return { ...d, customFilter: d.customFilter.filter((_, i) => i !== index) };
  return { ...d, [zone]: d[zone].filter((_, i) => i !== index) };
}

/** Fields the view names but the dataset no longer has (shown as broken chips, left out of the preview). */
export function brokenIds(d: ViewDraft, fields: PaletteField[]): Set<string> {
  const known = new Set(fields.map((f) => f.id));
  const out = new Set<string>();
  for (const zone of AXIS_ZONES) for (const a of d[zone]) if (!known.has(a.id)) out.add(a.id);
  for (const f of d.customFilter) if (!known.has(f.fieldId)) out.add(f.fieldId);
  return out;
}

/** The draft without the broken items: what the preview asks the server to draw. */
export function withoutBroken(d: ViewDraft, broken: Set<string>): ViewDraft {
  if (!broken.size) return d;
  const out: ViewDraft = { ...d, customFilter: d.customFilter.filter((f) => !broken.has(f.fieldId)) };
  for (const zone of AXIS_ZONES) out[zone] = d[zone].filter((a) => !broken.has(a.id));
  return out;
}

/** The zones a kind reads (spec: README "Which axes a kind reads"). */
export function zonesFor(type: string): Zone[] {
  const zones: Zone[] = [];
  if (!isSingleValueKind(type)) zones.push('xaxis');
  if (/stack/.test(type) || type === 'table-pivot') zones.push('xaxisExt');
  if (type !== 'table-info') zones.push('yaxis');
  if (type === 'chart-mix' || type === 'bar-contrast') zones.push('yaxisExt');
  if (type === 'scatter') zones.push('extBubble');
  if (!isTableKind(type) && !isTextKind(type) && !isSingleValueKind(type)) zones.push('drillFields');
  zones.push('customFilter');
  return zones;
}

/** Whether the draft has what its kind needs to be drawn (the preview waits until then). */
export function isDrawable(d: ViewDraft): boolean {
  if (!d.tableId) return false;
  if (d.type === 'table-info') return d.xaxis.length > 0;
  return d.yaxis.length > 0 || (isTableKind(d.type) && d.xaxis.length > 0);
}

/** A new kind; an engine that does not draw it switches to the one that does. */
export function setKind(d: ViewDraft, type: string, render: Render = d.render): ViewDraft {
  const engine: Render = engineDraws(render, type) ? render : render === 'antv' ? 'echarts' : 'antv';
  return { ...d, type, render: engine };
}

