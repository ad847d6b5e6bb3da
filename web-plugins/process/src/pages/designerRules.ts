/**
 * The designer's rules (spec reports.md 5, "Process designer") as the canvas applies them while the user
 * draws: a line from a node to itself, a second line between the same two nodes and a line back between
 * two nodes are refused before they exist; a gateway's branches without conditions and each node's settings
 * that break a rule (nodeRules.ts) are listed as problems. The server checks every rule again on save and
 * deploy (plugins/process/bpmn.py), with the same rule names.
 */
import RuleProvider from 'diagram-js/lib/features/rules/RuleProvider';
import type { Problem } from '../api';
import { nodeProblems } from './nodeRules';

/** A refused line, as the canvas reports it. */
export type Refusal = 'self_connect' | 'duplicate' | 'loopback';

interface Node { id: string; type?: string; businessObject?: any; outgoing?: Flow[]; incoming?: Flow[] }
interface Flow { id: string; type?: string; source?: Node | null; target?: Node | null; businessObject?: any }

const SEQUENCE_FLOW = 'bpmn:SequenceFlow';
const GATEWAYS = new Set(['bpmn:ExclusiveGateway', 'bpmn:InclusiveGateway']);

/** True for the shapes a sequence flow may join (not the diagram root, labels, data objects or pools). */
function isFlowNode(el: Node | null | undefined): el is Node {
  const bo = el?.businessObject;
  if (!bo) return false;
  if (typeof bo.$instanceOf === 'function') return bo.$instanceOf('bpmn:FlowNode');
  return /Event$|Task$|Gateway$|SubProcess$|^bpmn:CallActivity$/.test(String(el?.type || ''));
}

function joins(flow: Flow, from: Node, to: Node): boolean {
  return flow.type === SEQUENCE_FLOW && flow.source?.id === from.id && flow.target?.id === to.id;
}

/**
 * Why a sequence flow from `source` to `target` may not be drawn, or null when it may. `ignore` is a line
 * being reconnected: it does not count against itself.
 */
export function refusal(source: Node | null | undefined, target: Node | null | undefined, ignore?: Flow | null): Refusal | null {
  if (!isFlowNode(source) || !isFlowNode(target)) return null;
  if (source.id === target.id) return 'self_connect';
  const others = (flows: Flow[] | undefined) => (flows || []).filter((f) => !ignore || f.id !== ignore.id);
  if (others(source.outgoing).some((f) => joins(f, source, target))) return 'duplicate';
  if (others(target.outgoing).some((f) => joins(f, target, source))) return 'loopback';
  return null;
}

/** The refusal for a finished connect drag (`connect.end`), or null when the line was drawn or not ours to judge. */
export function connectRefusal(context: any): Refusal | null {
  if (!context || context.canExecute || !context.start || !context.hover) return null;
  return refusal(context.start, context.hover) || refusal(context.hover, context.start);
}

/** The refusal for a finished reconnect drag (`bendpoint.move.end`), or null. */
export function reconnectRefusal(context: any): Refusal | null {
  if (!context || context.allowed || !context.hover || !context.connection) return null;
  const c = context.connection as Flow;
  if (c.type !== SEQUENCE_FLOW) return null;
  if (context.type === 'reconnectStart') return refusal(context.hover, c.target, c);
  if (context.type === 'reconnectEnd') return refusal(c.source, context.hover, c);
  return null;
}

/** The diagram-js rules: refuse the three kinds of line, ahead of bpmn-js's own rules. */
export class AtriumRules extends (RuleProvider as any) {
  static $inject = ['eventBus'];

  init(): void {
    this.addRule('connection.create', 2000, (ctx: any) => (refusal(ctx.source, ctx.target) ? false : undefined));
    this.addRule('connection.reconnect', 2000, (ctx: any) => {
      if (ctx.connection?.type !== SEQUENCE_FLOW) return undefined;
      return refusal(ctx.source, ctx.target, ctx.connection) ? false : undefined;
    });
  }
}

/** The diagram-js module that adds the rules to a modeler (`additionalModules`). */
export const atriumRulesModule = {
  __init__: ['atriumRules'],
  atriumRules: ['type', AtriumRules],
};

/**
 * The problems of the diagram as it stands: each node's settings (parameters, scripts, HTTP requests,
 * timers), lines that break the rules (from an imported file, say) and gateway branches without conditions.
 * A gateway with one way out needs no condition; its default line neither.
 */
export function diagramProblems(elements: Array<Node & Flow>, t: (k: string, o?: any) => string): Problem[] {
  const out: Problem[] = elements.filter((e) => e.type !== 'label').flatMap((e) => nodeProblems(e, t));
  const seen = new Set<string>();
  for (const f of elements.filter((e) => e.type === SEQUENCE_FLOW)) {
    const s = f.source?.id;
    const d = f.target?.id;
    if (!s || !d) continue;
    if (s === d) out.push({ element: f.id, rule: 'self_connect', message: t('rule.self_connect') });
    else if (seen.has(`${s}>${d}`)) out.push({ element: f.id, rule: 'duplicate', message: t('rule.duplicate') });
    else if (seen.has(`${d}>${s}`)) out.push({ element: f.id, rule: 'loopback', message: t('rule.loopback') });
    seen.add(`${s}>${d}`);
  }
  for (const g of elements.filter((e) => GATEWAYS.has(String(e.type)))) {
    const outgoing = (g.outgoing || []).filter((f) => f.type === SEQUENCE_FLOW);
    if (outgoing.length < 2) continue;
    const def = g.businessObject?.default?.id;
    for (const f of outgoing) {
      if (f.id === def) continue;
      const cond = f.businessObject?.conditionExpression;
      if (!cond) out.push({ element: f.id, rule: 'gateway_branch', message: t('rule.gateway_branch') });
      else if (!String(cond.body || '').trim()) out.push({ element: f.id, rule: 'gateway_condition', message: t('rule.gateway_condition') });
    }
  }
  return out;
}
