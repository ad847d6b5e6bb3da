/**
 * The rules of a node's own settings (spec reports.md 5, "Process designer"), as the server applies them on
 * save and deploy (plugins/process/bpmn.py), with the same rule names: parameters and their interval, a
 * script task's language and lines, an HTTP task's request, a timer's duration or date.
 */
import type { Problem } from '../api';
import { isAllowedExpression, isAllowedScript } from './expression';
import {
  attr, HTTP_DEFAULTS, HTTP_FIELDS, isTimerEvent, kindOf, MAX_HTTP_ATTEMPTS, nodeName, rawAttr, extensionItems,
  timerDefinitions, timerValue, type TimerKind,
} from './nodeModel';

type Translate = (k: string, o?: any) => string;

export const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const NUMBER = /^-?\d+(\.\d+)?$/;
export const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})([T ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?)?(Z|[+-](\d{2}):?(\d{2}))?$/;

/** A problem as the server answers it: the element, the rule and its translated message. */
function problem(element: string, rule: string, t: Translate, params?: Record<string, unknown>): Problem {
  return { element, rule, message: t(`rule.${rule}`, params) };
}

/** Rule name of one parameter (`name`, `value`, numeric flag), or null when it is fine. */
export function parameterRule(name: string, value: string, numeric: boolean): 'kv_required' | 'param_name' | 'value_numeric' | null {
  const n = name.trim();
  const v = value.trim();
  if (!n || !v) return 'kv_required';
  if (!PARAM_NAME.test(n)) return 'param_name';
  if (numeric && !NUMBER.test(v)) return 'value_numeric';
  return null;
}

/** Rule name of an interval, or null when both bounds are numbers and the maximum is not below the minimum. */
export function intervalRule(min: string, max: string): 'value_numeric' | 'range_order' | null {
  const lo = min.trim();
  const hi = max.trim();
  if (!NUMBER.test(lo) || !NUMBER.test(hi)) return 'value_numeric';
  return Number(hi) < Number(lo) ? 'range_order' : null;
}

/** True when `raw` is JSON with a value other than {}, [], null or "" (the headers and body of a request). */
export function isFilledJson(raw: string): boolean {
  try {
    const value = JSON.parse(raw);
    if (value === null || value === '') return false;
    if (Array.isArray(value)) return value.length > 0;
    return typeof value !== 'object' || Object.keys(value).length > 0;
  } catch {
    return false;
  }
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True when `text` is a bare ISO 8601 duration (`PT5M`) or a date (`2026-05-01T09:00`), by `kind`. */
export function isTimerLiteral(kind: TimerKind, text: string): boolean {
  if (kind === 'timeDuration') {
    const m = ISO_DURATION.exec(text);
    return !!m && !(m[3] && (m[1] || m[2] || m[4]));
  }
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || year < 1) return false;
  if (m[4] && (Number(m[5]) > 23 || Number(m[6]) > 59 || (m[8] !== undefined && Number(m[8]) > 59))) return false;
  return !(m[11] !== undefined && (Number(m[11]) > 23 || Number(m[12]) > 59));
}

/** Rule name of a timer's value, or null: a literal duration or date, or an allowed expression. */
export function timerRule(kind: TimerKind | null, text: string): 'timer_required' | 'timer_invalid' | null {
  if (!kind || !text.trim()) return 'timer_required';
  return isTimerLiteral(kind, text.trim()) || isAllowedExpression(text) ? null : 'timer_invalid';
}

/** Rule names of a script task's language and content, in the server's order. */
export function scriptRules(language: string, content: string): Array<'script_language' | 'script_content' | 'script_unsafe'> {
  const out: Array<'script_language' | 'script_content' | 'script_unsafe'> = [];
  if (!language.trim()) out.push('script_language');
  if (!content.trim()) out.push('script_content');
  else if (language.trim() && !isAllowedScript(content.trim())) out.push('script_unsafe');
  return out;
}

/** The problems of an HTTP task's settings (`values`: its `atrium:` attributes as written, trimmed or absent). */
export function httpProblems(id: string, name: string, values: Record<string, string | undefined>, t: Translate): Problem[] {
  const out: Problem[] = [];
  const value = (key: string) => (values[key] || '').trim();
  for (const [key, rule] of HTTP_FIELDS) if (!value(key)) out.push(problem(id, rule, t, { name }));
  const url = value('url');
  if (url && !/^https?:\/\//i.test(url)) out.push(problem(id, 'http_url_scheme', t, { name }));
  const code = value('successCode');
  if (code && !(/^\d+$/.test(code) && Number(code) >= 100 && Number(code) <= 599)) out.push(problem(id, 'http_success_code', t, { name }));
  const attempts = value('attempts') || HTTP_DEFAULTS.attempts;
  if (!(/^\d+$/.test(attempts) && Number(attempts) >= 1 && Number(attempts) <= MAX_HTTP_ATTEMPTS)) {
    out.push(problem(id, 'http_attempts', t, { name, limit: MAX_HTTP_ATTEMPTS }));
  }
  const result = value('resultVariable') || 'response';
  if (!PARAM_NAME.test(result)) out.push(problem(id, 'param_name', t, { name: result.slice(0, 64) }));
  for (const key of ['headers', 'body']) {
    const raw = values[key];
    if (raw !== undefined && !isFilledJson(raw)) out.push(problem(id, 'json_invalid', t, { field: key }));
  }
  return out;
}

const HTTP_KEYS = [...HTTP_FIELDS.map(([key]) => key), 'attempts', 'resultVariable', 'headers', 'body'];

/** The problems of one canvas element's own settings; lines and labels have none. */
export function nodeProblems(el: { id: string; type?: string; businessObject?: any }, t: Translate): Problem[] {
  const bo = el.businessObject;
  if (!bo || el.type === 'label' || el.type === 'bpmn:SequenceFlow' || typeof bo.$instanceOf !== 'function' || !bo.$instanceOf('bpmn:FlowNode')) return [];
  const id = el.id;
  const name = nodeName(bo);
  const out: Problem[] = [];
  for (const item of extensionItems(bo)) {
    if (item.tag === 'property') {
      const rule = parameterRule(item.get('name'), item.get('value'), item.get('type') === 'number');
      if (rule) out.push(problem(id, rule, t, { name: item.get('name').trim().slice(0, 64) }));
    } else if (item.tag === 'range') {
      const rule = intervalRule(item.get('min'), item.get('max'));
      if (rule) out.push(problem(id, rule, t, { name: 'range' }));
    }
  }
  if (el.type === 'bpmn:ScriptTask') {
    for (const rule of scriptRules(String(bo.scriptFormat || ''), String(bo.script || ''))) out.push(problem(id, rule, t, { name }));
  } else if (el.type === 'bpmn:ServiceTask') {
    if (attr(bo, 'type') !== 'http') out.push(problem(id, 'unsupported', t, { element: kindOf(bo) }));
    else out.push(...httpProblems(id, name, Object.fromEntries(HTTP_KEYS.map((k) => [k, rawAttr(bo, k)])), t));
  } else if (isTimerEvent(String(el.type))) {
    const definitions = timerDefinitions(bo);
    const value = definitions.length === 1 ? timerValue(definitions[0]) : null;
    const rule = timerRule(value?.kind || null, value?.text || '');
    if (rule) out.push(problem(id, rule, t, { name, value: (value?.text || '').slice(0, 64) }));
  }
  return out;
}
