/**
 * Palette and context pad entries for the nodes the engine runs beyond plain tasks: an HTTP task (a service
 * task calling an address), a script task and a timer event, each created ready to be set up in the
 * settings.
 */
import { httpTaskAttrs } from './settings/editing';

type Kind = 'http-task' | 'script-task' | 'timer-event';

const ICONS: Record<Kind, string> = {
  'http-task': 'bpmn-icon-service-task',
  'script-task': 'bpmn-icon-script-task',
  'timer-event': 'bpmn-icon-intermediate-event-catch-timer',
};
const TITLES: Record<Kind, [string, string]> = {
  'http-task': ['Create HTTP task', 'Append HTTP task'],
  'script-task': ['Create script task', 'Append script task'],
  'timer-event': ['Create timer event', 'Append timer event'],
};
const KINDS = Object.keys(ICONS) as Kind[];

/** Nodes whose context pad appends the next step (not an end event, a label or a line). */
function appendsFrom(element: any): boolean {
  const bo = element?.businessObject;
  if (!bo || element.type === 'label' || typeof bo.$instanceOf !== 'function') return false;
  return bo.$instanceOf('bpmn:FlowNode') && !bo.$instanceOf('bpmn:EndEvent');
}

export class AtriumPalette {
  static $inject = ['contextPad', 'palette', 'elementFactory', 'create', 'translate', 'injector'];

  private readonly autoPlace: any;

  constructor(contextPad: any, palette: any, private readonly elementFactory: any, private readonly create: any,
    private readonly translate: (s: string) => string, injector: any) {
    this.autoPlace = injector.get('autoPlace', false);
    contextPad.registerProvider(this);
    palette.registerProvider(this);
  }

  /** A new, unplaced shape of `kind`. */
  shape(kind: Kind): any {
    if (kind === 'timer-event') {
      return this.elementFactory.createShape({ type: 'bpmn:IntermediateCatchEvent', eventDefinitionType: 'bpmn:TimerEventDefinition' });
    }
    if (kind === 'script-task') {
      const shape = this.elementFactory.createShape({ type: 'bpmn:ScriptTask' });
      shape.businessObject.scriptFormat = 'python';
      return shape;
    }
    const shape = this.elementFactory.createShape({ type: 'bpmn:ServiceTask' });
    for (const [k, v] of Object.entries(httpTaskAttrs())) shape.businessObject.$attrs[`atrium:${k}`] = v;
    return shape;
  }

  getPaletteEntries(): Record<string, unknown> {
    const start = (event: Event, kind: Kind) => this.create.start(event, this.shape(kind));
    return Object.fromEntries(KINDS.map((kind) => [`create.${kind}`, {
      group: 'activity',
      className: ICONS[kind],
      title: this.translate(TITLES[kind][0]),
      action: { dragstart: (e: Event) => start(e, kind), click: (e: Event) => start(e, kind) },
    }]));
  }

  getContextPadEntries(element: any): Record<string, unknown> {
    if (!appendsFrom(element)) return {};
    const drag = (event: Event, source: any, kind: Kind) => this.create.start(event, this.shape(kind), { source });
    const append = (event: Event, source: any, kind: Kind) => (this.autoPlace ? this.autoPlace.append(source, this.shape(kind)) : drag(event, source, kind));
    return Object.fromEntries(KINDS.map((kind) => [`append.${kind}`, {
      group: 'model',
      className: ICONS[kind],
      title: this.translate(TITLES[kind][1]),
      action: { dragstart: (e: Event, el: any) => drag(e, el, kind), click: (e: Event, el: any) => append(e, el, kind) },
    }]));
  }
}

/** The diagram-js module that adds the entries to a modeler (`additionalModules`). */
export const atriumPaletteModule = {
  __init__: ['atriumPalette'],
  atriumPalette: ['type', AtriumPalette],
};
