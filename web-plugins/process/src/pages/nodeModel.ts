/**
 * How the plugin's settings of a node live in the BPMN XML, read from a bpmn-js business object (the server
 * reads the same places, plugins/process/bpmn.py): `atrium:*` attributes, `scriptFormat` and `<bpmn:script>`
 * of a script task, `<atrium:property name value type>` and `<atrium:range min max>` under
 * `<bpmn:extensionElements>`, and a timer event's `timeDuration` or `timeDate`.
 */

export const ATRIUM_NS = 'http://atrium.dev/schema/bpmn';
export const FILE_TYPES = ['.bpmn', '.xml'];
export const TIMER_KINDS = ['timeDuration', 'timeDate'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
export const HTTP_PARAM_TYPES = ['json', 'form', 'query'];
/** The request's settings in the server's order, each with the rule named when it is missing. */
export const HTTP_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['url', 'http_url'],
  ['method', 'http_method'],
  ['paramType', 'http_param_type'],
  ['charset', 'http_charset'],
  ['contentType', 'http_content_type'],
  ['successCode', 'http_success_code'],
];
export const HTTP_DEFAULTS: Record<string, string> = { charset: 'utf-8', contentType: 'application/json', successCode: '200', attempts: '3' };
export const MAX_HTTP_ATTEMPTS = 10;
export const SCRIPT_LANGUAGES = ['python'];

/** One parameter of a node (`<atrium:property>`). */
export interface Parameter { name: string; value: string; numeric: boolean }
/** A node's interval (`<atrium:range>`). */
export interface Interval { min: string; max: string }

/** An `atrium:` attribute as written, or undefined when absent. */
export function rawAttr(bo: any, name: string): string | undefined {
  const value = bo?.$attrs?.[`atrium:${name}`];
  return value === undefined || value === null ? undefined : String(value);
}

/** An `atrium:` attribute, trimmed ('' when absent). */
export function attr(bo: any, name: string): string {
  return (rawAttr(bo, name) || '').trim();
}

function localName(type: unknown): string {
  return String(type || '').split(':').pop() || '';
}

/** The node's BPMN kind as the server names it (`serviceTask`, `intermediateCatchEvent`, ...). */
export function kindOf(bo: any): string {
  const local = localName(bo?.$type);
  return local.charAt(0).toLowerCase() + local.slice(1);
}

/** The node's name as the server's messages show it: its name, or its kind. */
export function nodeName(bo: any): string {
  return String(bo?.name || kindOf(bo)).slice(0, 100);
}

function field(item: any, name: string): string {
  const value = item?.[name] ?? item?.$attrs?.[name];
  return value === undefined || value === null ? '' : String(value);
}

/** The children of the node's extension elements, as `[local tag, attribute reader]`. */
export function extensionItems(bo: any): Array<{ tag: string; get: (name: string) => string }> {
  const values: any[] = bo?.extensionElements?.values || [];
  return values.map((item) => ({ tag: localName(item?.$type), get: (name: string) => field(item, name) }));
}

export function parameters(bo: any): Parameter[] {
  return extensionItems(bo).filter((i) => i.tag === 'property')
    .map((i) => ({ name: i.get('name'), value: i.get('value'), numeric: i.get('type') === 'number' }));
}

export function interval(bo: any): Interval | null {
  const item = extensionItems(bo).find((i) => i.tag === 'range');
  return item ? { min: item.get('min'), max: item.get('max') } : null;
}

/** The node's timer event definitions. */
export function timerDefinitions(bo: any): any[] {
  return (bo?.eventDefinitions || []).filter((d: any) => localName(d?.$type) === 'TimerEventDefinition');
}

/** The timer's kind and text, when it has exactly one of a duration or a date. */
export function timerValue(definition: any): { kind: TimerKind; text: string } | null {
  const set = TIMER_KINDS.filter((k) => definition?.[k]);
  if (set.length !== 1) return null;
  return { kind: set[0], text: String(definition[set[0]].body || '').trim() };
}

export function isTimerEvent(type: string): boolean {
  return type === 'bpmn:IntermediateCatchEvent' || type === 'bpmn:BoundaryEvent';
}

export function hasFileType(fileName: string): boolean {
  return FILE_TYPES.some((ext) => fileName.toLowerCase().endsWith(ext));
}
