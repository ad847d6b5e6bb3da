/**
 * Style settings as the viewer reads them (charts/common.ts, echartsOptions.ts, antvOptions.ts):
 * customAttr.color.colors / alpha, label.show / position, tooltip.show, size.tablePageSize, threshold.ruleList;
 * customStyle.legend.show / hPosition / vPosition / orient, xAxis / yAxis / yAxisExt name and axisLabel.rotate.
 */
import { DEFAULT_COLORS, isObject, type Json, type ThresholdRule } from '../../charts/common';
import type { ViewDraft } from './model';

export const THRESHOLD_TYPES = ['between', 'eq', 'not_eq', 'lt', 'gt', 'le', 'ge'] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];
export const LEGEND_H = ['left', 'center', 'right'] as const;
export const LEGEND_V = ['top', 'center', 'bottom'] as const;
export const LABEL_POSITIONS = ['top', 'inside', 'bottom'] as const;
export const PIE_LABEL_POSITIONS = ['outside', 'inside'] as const;
export const AXIS_KEYS = ['xAxis', 'yAxis', 'yAxisExt'] as const;
export type AxisKey = (typeof AXIS_KEYS)[number];

export function getIn(obj: Json, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** A copy of `obj` with the value at `path` set (undefined removes it); objects on the way are copied. */
export function setIn(obj: Json, path: readonly string[], value: unknown): Json {
  const [head, ...rest] = path;
  const out: Json = { ...obj };
  if (!rest.length) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  out[head] = setIn(isObject(obj[head]) ? obj[head] : {}, rest, value);
  return out;
}

export function setAttr(d: ViewDraft, path: readonly string[], value: unknown): ViewDraft {
  return { ...d, attr: setIn(d.attr, path, value) };
}

export function setStyle(d: ViewDraft, path: readonly string[], value: unknown): ViewDraft {
  return { ...d, style: setIn(d.style, path, value) };
}

/** The 9 colours the view uses: its own, else the palette. */
export function viewColors(d: ViewDraft): string[] {
  const colors = getIn(d.attr, ['color', 'colors']);
  return Array.isArray(colors) && colors.length ? colors.map(String) : [...DEFAULT_COLORS];
}

export function usesCustomColors(d: ViewDraft): boolean {
  const colors = getIn(d.attr, ['color', 'colors']);
  return Array.isArray(colors) && colors.length > 0;
}

/** Custom colours on (a copy of the palette to edit) or off (back to the palette). */
export function setCustomColors(d: ViewDraft, on: boolean): ViewDraft {
  return setAttr(d, ['color', 'colors'], on ? [...DEFAULT_COLORS] : undefined);
}

export function setColor(d: ViewDraft, index: number, color: string): ViewDraft {
  const colors = viewColors(d);
  colors[index] = color;
  return setAttr(d, ['color', 'colors'], colors);
}

export function thresholdRules(d: ViewDraft): ThresholdRule[] {
  const list = getIn(d.attr, ['threshold', 'ruleList']);
  return Array.isArray(list) ? (list as ThresholdRule[]) : [];
}

/** Two values for `between`, one for the others. */
export function newRule(type: ThresholdType = 'gt'): ThresholdRule {
  return { type, values: type === 'between' ? [0, 100] : [0], color: '#ee6666' };
}

export function setRules(d: ViewDraft, rules: ThresholdRule[]): ViewDraft {
  return setAttr(d, ['threshold', 'ruleList'], rules);
}

export function updateRule(d: ViewDraft, index: number, patch: Partial<ThresholdRule>): ViewDraft {
  return setRules(
    d,
    thresholdRules(d).map((r, i) => {
      if (i !== index) return r;
      const next = { ...r, ...patch };
      if (patch.type) {
        const values = Array.isArray(r.values) ? r.values : [];
        next.values = patch.type === 'between' ? [values[0] ?? 0, values[1] ?? values[0] ?? 0] : [values[0] ?? 0];
      }
      return next;
    }),
  );
}

/** The table page size: kept in customAttr.size (what the viewer reads) and in the view's pageSize. */
export function setTablePageSize(d: ViewDraft, size: number): ViewDraft {
  return { ...setAttr(d, ['size', 'tablePageSize'], size), pageSize: size };
}
