/** Writing the plugin's settings back into the diagram through bpmn-js's modeling, so each edit can be undone. */
import { ATRIUM_NS, HTTP_DEFAULTS, timerDefinitions, type Interval, type Parameter, type TimerKind } from '../nodeModel';

export type Modeler = any;

/** The element being edited and how to write its properties (`onChange` rechecks the canvas). */
export interface Editing {
  modeler: Modeler;
  element: any;
  onChange: () => void;
}

export function update(e: Editing, props: Record<string, unknown>): void {
  e.modeler.get('modeling').updateProperties(e.element, props);
  e.onChange();
}

/** Sets `atrium:` attributes; an empty value removes the attribute. */
export function setAttrs(e: Editing, values: Record<string, string | undefined>): void {
  update(e, Object.fromEntries(Object.entries(values).map(([k, v]) => [`atrium:${k}`, v?.trim() ? v : undefined])));
}

/** The attributes that make a service task an HTTP task, with the request's defaults. */
export function httpTaskAttrs(): Record<string, string> {
  return { type: 'http', ...HTTP_DEFAULTS };
}

/** Replaces the node's parameters and interval, keeping any other extension elements. */
export function writeParameters(e: Editing, rows: Parameter[], range: Interval | null): void {
  const moddle = e.modeler.get('moddle');
  const bo = e.element.businessObject;
  const others = (bo.extensionElements?.values || [])
    .filter((v: any) => !['property', 'range'].includes(String(v?.$type || '').split(':').pop() || ''));
  const items = rows.map((r) => moddle.createAny('atrium:property', ATRIUM_NS,
    r.numeric ? { name: r.name, value: r.value, type: 'number' } : { name: r.name, value: r.value }));
  if (range) items.push(moddle.createAny('atrium:range', ATRIUM_NS, { min: range.min, max: range.max }));
  const values = [...others, ...items];
  update(e, { extensionElements: values.length ? moddle.create('bpmn:ExtensionElements', { values }) : undefined });
}

/** Sets the timer's one duration or date, creating its definition when the event has none. */
export function writeTimer(e: Editing, kind: TimerKind, text: string): void {
  const factory = e.modeler.get('bpmnFactory');
  const expression = factory.create('bpmn:FormalExpression', { body: text });
  const values = { timeDuration: undefined, timeDate: undefined, timeCycle: undefined, [kind]: expression };
  const [definition] = timerDefinitions(e.element.businessObject);
  if (definition) {
    e.modeler.get('modeling').updateModdleProperties(e.element, definition, values);
    e.onChange();
  } else {
    const created = factory.create('bpmn:TimerEventDefinition', values);
    update(e, { eventDefinitions: [...(e.element.businessObject.eventDefinitions || []), created] });
  }
}
