/** The chart kinds of the spec (2.3) by render engine, and which axes each kind reads. */

export type Render = 'echarts' | 'antv';

export const ECHARTS_KINDS = [
  'bar', 'bar-stack', 'bar-horizontal', 'bar-contrast', 'bar-stack-horizontal', 'line', 'line-stack', 'pie', 'pie-rose',
  'funnel', 'radar', 'gauge', 'gauge-percentage', 'scatter', 'treemap', 'chart-mix', 'map',
] as const;

export const ANTV_KINDS = [
  'bar', 'bar-stack', 'bar-horizontal', 'bar-stack-horizontal', 'line', 'line-stack', 'scatter', 'radar', 'gauge', 'pie',
  'pie-rose', 'funnel', 'treemap', 'liquid', 'waterfall', 'word-cloud',
] as const;

/** Tables and text labels are drawn the same way whichever engine the view names. */
export const TABLE_AND_TEXT_KINDS = ['table-info', 'table-normal', 'table-pivot', 'text', 'label'] as const;

export function kindsOf(render: Render): readonly string[] {
  return [...(render === 'antv' ? ANTV_KINDS : ECHARTS_KINDS), ...TABLE_AND_TEXT_KINDS];
}

/** Whether the engine draws the kind (tables and text with either). */
export function engineDraws(render: Render, type: string): boolean {
  return kindsOf(render).includes(type);
}

export function isTableKind(type: string): boolean {
  return type.startsWith('table-');
}

export function isTextKind(type: string): boolean {
  return type.includes('text') || type === 'label';
}

/** Kinds that show one value (no dimension). */
export function isSingleValueKind(type: string): boolean {
  return type === 'gauge' || type === 'gauge-percentage' || type === 'liquid';
}

export function isPieKind(type: string): boolean {
  return type === 'pie' || type === 'pie-rose' || type === 'funnel';
}

export function hasAxes(type: string): boolean {
  return /^(bar|line|scatter|chart-mix|waterfall)/.test(type);
}

export function hasLegend(type: string): boolean {
  return !isTableKind(type) && !isTextKind(type) && !isSingleValueKind(type) && type !== 'word-cloud';
}
