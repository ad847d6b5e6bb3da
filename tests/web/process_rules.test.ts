/**
 * The process designer's rules as the canvas applies them (web-plugins/process/src/pages/designerRules.ts),
 * on elements shaped as bpmn-js gives them: the three refused lines (spec reports.md 5: self-connection,
 * duplicate relation, loopback), the reconnect case, and the gateway branches that need conditions; every
 * `rule` is a key of the process bundle in all five languages, with the spec's English text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { connectRefusal, diagramProblems, reconnectRefusal, refusal } from '../../web-plugins/process/src/pages/designerRules';
import { CANVAS_KEYS } from '../../web-plugins/process/src/pages/canvasTranslate';

type El = { id: string; type: string; businessObject: any; outgoing: El[]; incoming: El[]; source?: El; target?: El };

function node(id: string, type = 'bpmn:Task'): El {
  return { id, type, businessObject: { id, $instanceOf: (t: string) => t === 'bpmn:FlowNode' }, outgoing: [], incoming: [] };
}

function flow(id: string, source: El, target: El, condition?: string): El {
  const f: El = { id, type: 'bpmn:SequenceFlow', businessObject: { id }, outgoing: [], incoming: [], source, target };
  if (condition !== undefined) f.businessObject.conditionExpression = { body: condition };
  source.outgoing.push(f);
  target.incoming.push(f);
  return f;
}

const t = (k: string) => k;

test('a node may not connect to itself, twice to the same node, or back', () => {
  const a = node('a');
  const b = node('b');
  const c = node('c');
  const ab = flow('ab', a, b);
  assert.equal(refusal(a, a), 'self_connect');
  assert.equal(refusal(a, b), 'duplicate');
  assert.equal(refusal(b, a), 'loopback');
  assert.equal(refusal(b, c), null);
  assert.equal(refusal(a, c), null);
  // a line being moved does not count against itself
  assert.equal(refusal(a, b, ab), null);
  // not flow nodes (the diagram root, a text annotation): not this rule's business
  const root = { id: 'process_1', type: 'bpmn:Process', businessObject: { $instanceOf: () => false } } as any;
  assert.equal(refusal(a, root), null);
});

test('a finished drag names its refusal', () => {
  const a = node('a');
  const b = node('b');
  const ab = flow('ab', a, b);
  assert.equal(connectRefusal({ start: a, hover: a, canExecute: false }), 'self_connect');
  assert.equal(connectRefusal({ start: a, hover: b, canExecute: false }), 'duplicate');
  assert.equal(connectRefusal({ start: b, hover: a, canExecute: false }), 'loopback');
  assert.equal(connectRefusal({ start: a, hover: b, canExecute: { type: 'bpmn:SequenceFlow' } }), null);
  assert.equal(connectRefusal({ start: a, hover: null, canExecute: false }), null);
  const c = node('c');
  assert.equal(reconnectRefusal({ connection: ab, hover: a, type: 'reconnectEnd', allowed: false }), 'self_connect');
  assert.equal(reconnectRefusal({ connection: ab, hover: c, type: 'reconnectEnd', allowed: false }), null);
  flow('bc', b, c);
  // moving the start of a→b onto c gives c→b, the way back of b→c
  assert.equal(reconnectRefusal({ connection: ab, hover: c, type: 'reconnectStart', allowed: false }), 'loopback');
  flow('cb', c, b);
  assert.equal(reconnectRefusal({ connection: ab, hover: c, type: 'reconnectStart', allowed: false }), 'duplicate');
});

test('gateway branches need conditions, except the default and a single way out', () => {
  const g = node('g', 'bpmn:ExclusiveGateway');
  const x = node('x');
  const y = node('y');
  const z = node('z');
  const gx = flow('gx', g, x);
  assert.deepEqual(diagramProblems([g, x, gx] as any, t), []);
  const gy = flow('gy', g, y, '  ');
  const gz = flow('gz', g, z, 'days > 3');
  const rules = diagramProblems([g, x, y, z, gx, gy, gz] as any, t).map((p) => `${p.element}:${p.rule}`);
  assert.deepEqual(rules, ['gx:gateway_branch', 'gy:gateway_condition']);
  g.businessObject.default = { id: 'gx' };
  assert.deepEqual(diagramProblems([g, x, y, z, gx, gy, gz] as any, t).map((p) => p.rule), ['gateway_condition']);
  const p = node('p', 'bpmn:ParallelGateway');
  const all = [p, x, y, flow('px', p, x), flow('py', p, y)];
  assert.deepEqual(diagramProblems(all as any, t), []);
});

test('an imported diagram with bad lines lists them', () => {
  const a = node('a');
  const b = node('b');
  const els = [a, b, flow('f1', a, a), flow('f2', a, b), flow('f3', a, b), flow('f4', b, a)];
  assert.deepEqual(diagramProblems(els as any, t).map((p) => `${p.element}:${p.rule}`), ['f1:self_connect', 'f3:duplicate', 'f4:loopback']);
});

test('every message the canvas shows is in all five languages', () => {
  const root = path.resolve(process.cwd(), 'i18n');
  const spec: Record<string, string> = {
    self_connect: 'The node does not support connecting itself',
    duplicate: 'The relationship already exists and cannot be created again',
    loopback: 'A loopback between two nodes is not supported',
    gateway_branch: 'Gateway branch please click line to set conditions',
    gateway_condition: 'Gateway condition branches must enter conditions',
  };
  for (const locale of ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu']) {
    const bundle = JSON.parse(readFileSync(path.join(root, locale, 'process.json'), 'utf8'));
    for (const [rule, english] of Object.entries(spec)) {
      assert.ok(bundle.rule[rule], `${locale} rule.${rule}`);
      if (locale === 'en-us') assert.equal(bundle.rule[rule], english);
    }
    for (const key of Object.values(CANVAS_KEYS)) assert.ok(bundle.canvas?.[key], `${locale} canvas.${key}`);
    for (const key of ['properties', 'settings', 'noSettings', 'problems']) assert.ok(bundle.web[key], `${locale} web.${key}`);
  }
});
