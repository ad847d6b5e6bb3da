/** Chart clicks (spec 2.3, 4): which actions apply, drill steps, linkage and jump filters. Pure. */
import type { AxisItem, ChartView, DimensionRef, DrillItem, FilterItem, JumpInfo } from './types';

export type ClickAction = 'drill' | 'linkage' | 'jump';

/** `{"sourceViewId#sourceFieldId": ["targetViewId#targetFieldId"]}` */
export type LinkageInfo = Record<string, string[]>;
export type JumpMap = Record<string, JumpInfo>;

/** Whether the view can drill one level further from the current drill list. */
export function canDrill(view: Pick<ChartView, 'drillFields'>, drill: DrillItem[]): boolean {
  const fields = view.drillFields || [];
  return fields.length > 1 && drill.length < fields.length - 1;
}

export function hasLinkage(viewId: string, dims: DimensionRef[], info: LinkageInfo): boolean {
  return dims.some((d) => (info[`${viewId}#${d.id}`] || []).length > 0);
}

export function jumpFor(viewId: string, dims: DimensionRef[], map: JumpMap): JumpInfo | undefined {
  for (const d of dims) {
    const j = map[`${viewId}#${d.id}`];
    if (j) return { ...j, sourceFieldId: j.sourceFieldId || d.id };
  }
  return undefined;
}

/** The actions a click offers, in menu order. */
export function clickActions(view: Pick<ChartView, 'id' | 'drillFields'>, dims: DimensionRef[], drill: DrillItem[], linkage: LinkageInfo, jumps: JumpMap): ClickAction[] {
  const out: ClickAction[] = [];
  if (canDrill(view, drill)) out.push('drill');
  if (hasLinkage(view.id, dims, linkage)) out.push('linkage');
  if (jumpFor(view.id, dims, jumps)) out.push('jump');
  return out;
}

/** Spec 2.3: the menu shows only when more than one action applies. */
export function needsMenu(actions: ClickAction[]): boolean {
  return actions.length > 1;
}

/** The next drill step: the clicked value of the current drill field (level = count of drill filters). */
export function drillStep(view: Pick<ChartView, 'drillFields'>, drill: DrillItem[], dims: DimensionRef[]): DrillItem | null {
  const fields: AxisItem[] = view.drillFields || [];
  const current = fields[drill.length];
  if (!current) return null;
  const dim = dims.find((d) => d.id === current.id) ?? dims[0];
  if (!dim) return null;
  return { fieldId: current.id, value: [dim.value], label: dim.value === null || dim.value === undefined ? '' : String(dim.value) };
}

/** Linkage: the filters each target view gets from a click on `viewId`. */
export function linkageFilters(viewId: string, dims: DimensionRef[], info: LinkageInfo): Record<string, FilterItem[]> {
  const out: Record<string, FilterItem[]> = {};
  for (const d of dims) {
    for (const target of info[`${viewId}#${d.id}`] || []) {
      const [targetView, targetField] = target.split('#');
      if (!targetView || !targetField) continue;
      (out[targetView] ||= []).push({ fieldId: targetField, operator: 'eq', value: [d.value], viewIds: [targetView], sourceViewId: viewId });
    }
  }
  return out;
}

/** What the jump flow stores locally before opening the target (spec 4). */
export interface JumpParams {
  sourcePanelId: string;
  sourceViewId: string;
  sourceFieldId: string;
  targetPanelId: string;
  dimensionList: DimensionRef[];
  quotaList?: { id: string }[];
  at: number;
}

export const JUMP_STORAGE_KEY = 'atrium.reports.jumpParams';

/** Track filters on the target from `baseJumpInfoVisualMap` and the clicked dimensions. */
export function trackFilters(params: Pick<JumpParams, 'sourceViewId' | 'dimensionList'>, visualMap: Record<string, string[]>): FilterItem[] {
  const out: FilterItem[] = [];
  for (const d of params.dimensionList) {
    for (const target of visualMap[`${params.sourceViewId}#${d.id}`] || []) {
      const [viewId, fieldId] = target.split('#');
      if (viewId && fieldId) out.push({ fieldId, operator: 'eq', value: [d.value], viewIds: [viewId], sourceViewId: params.sourceViewId });
    }
  }
  return out;
}

/** The warning a jump gives instead of opening, if any (spec 8). */
export function jumpProblem(jump: JumpInfo | undefined): 'noJumpInfo' | 'noTargetPanel' | 'noPublicLink' | null {
  if (!jump) return 'noJumpInfo';
  if (jump.linkType === 'inner') {
    if (!jump.targetPanelId) return 'noTargetPanel';
    if (!jump.publicJumpId) return 'noPublicLink';
    return null;
  }
  if (!jump.content) return 'noJumpInfo';
  return null;
}

/** The address an outer jump opens: its content, with the clicked values when attachParams is set. */
export function outerJumpUrl(jump: JumpInfo, dims: DimensionRef[], names: Record<string, string>): string {
  const url = jump.content || '';
  if (!jump.attachParams || !dims.length) return url;
  const q = new URLSearchParams();
  for (const d of dims) q.append(names[d.id] || d.id, d.value === null || d.value === undefined ? '' : String(d.value));
  return url + (url.includes('?') ? '&' : '?') + q.toString();
}
