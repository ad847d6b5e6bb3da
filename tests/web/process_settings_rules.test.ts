/**
 * The rules of a node's own settings as the designer's canvas applies them (web-plugins/process/src/pages/
 * nodeRules.ts and expression.ts), mirroring the server (plugins/process/bpmn.py, expr.py): parameters and
 * intervals, JSON, script tasks, HTTP tasks, timers and the accepted file types; each rule's message is in
 * all five languages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isAllowedExpression, isAllowedScript } from '../../web-plugins/process/src/pages/expression';
import {
  httpProblems, intervalRule, isFilledJson, isTimerLiteral, nodeProblems, parameterRule, scriptRules, timerRule,
} from '../../web-plugins/process/src/pages/nodeRules';
import { hasFileType } from '../../web-plugins/process/src/pages/nodeModel';
import { diagramProblems } from '../../web-plugins/process/src/pages/designerRules';

const t = (k: string, o?: Record<string, unknown>) => (o ? `${k} ${JSON.stringify(o)}` : k);

function bo(type: string, props: Record<string, unknown> = {}, attrs: Record<string, string> = {}) {
  return { $type: type, $attrs: attrs, $instanceOf: (x: string) => x === 'bpmn:FlowNode', ...props };
}

function el(id: string, type: string, businessObject: any) {
  return { id, type, businessObject };
}

const http = { url: 'https://example.test/api', method: 'POST', paramType: 'json', charset: 'utf-8', contentType: 'application/json', successCode: '200' };
const rulesOf = (problems: { rule: string }[]) => problems.map((p) => p.rule);

test('parameter names start with a letter or underscore; key and value are required; numeric values', () => {
  assert.equal(parameterRule('days', '3', true), null);
  assert.equal(parameterRule('_days', 'three', false), null);
  assert.equal(parameterRule('', '3', false), 'kv_required');
  assert.equal(parameterRule('days', '  ', false), 'kv_required');
  assert.equal(parameterRule('1abc', '3', false), 'param_name');
  assert.equal(parameterRule('a-b', '3', false), 'param_name');
  assert.equal(parameterRule('days', 'x', true), 'value_numeric');
  assert.equal(parameterRule('days', '-2.5', true), null);
  assert.equal(parameterRule('days', '1e3', true), 'value_numeric');
});

test('an interval has numeric bounds, the maximum not below the minimum', () => {
  assert.equal(intervalRule('1', '5'), null);
  assert.equal(intervalRule('2', '2'), null);
  assert.equal(intervalRule('10', '2'), 'range_order');
  assert.equal(intervalRule('', '2'), 'value_numeric');
  assert.equal(intervalRule('a', '2'), 'value_numeric');
});

test('JSON must be valid and not empty', () => {
  assert.equal(isFilledJson('{"a": 1}'), true);
  assert.equal(isFilledJson('[1]'), true);
  assert.equal(isFilledJson('3'), true);
  assert.equal(isFilledJson('{not json'), false);
  assert.equal(isFilledJson('{}'), false);
  assert.equal(isFilledJson('[]'), false);
  assert.equal(isFilledJson('null'), false);
  assert.equal(isFilledJson('""'), false);
  assert.equal(isFilledJson(''), false);
});

test('expressions are vetted as the server vets them', () => {
  for (const ok of ['days > 3', 'soon', "status == 'ok' and len(items) >= 2", 'a if b else c', 'x not in [1, 2]', 'y is not None',
    '{"a": 1}[k]', 'max(a, b) + -c', '(1,)', "'P' + str(n)", '{}', 'a # note']) {
    assert.equal(isAllowedExpression(ok), true, ok);
  }
  for (const bad of ['', 'in 5 minutes', '5 minutes', 'os.system("x")', '__import__("os")', 'open("f")', 'lambda: 1', '[x for x in y]',
    'a[1:2]', '2 ** 8', 'f"{x}"', '_secret', 'a = 1', '{1, 2}', 'len(x=1)', 'max(*a)', 'a(1)(2)', '(1', 'x.y', 'a; b']) {
    assert.equal(isAllowedExpression(bad), false, bad);
  }
  assert.equal(isAllowedExpression(`'${'x'.repeat(201)}'`), false);
  assert.equal(isAllowedExpression('a'.repeat(501)), false);
});

test('a script task needs a language and lines of name = expression', () => {
  assert.deepEqual(scriptRules('python', 'total = price * 2\n# note\n\nok = total > 10'), []);
  assert.deepEqual(scriptRules('', ''), ['script_language', 'script_content']);
  assert.deepEqual(scriptRules('python', '  '), ['script_content']);
  assert.deepEqual(scriptRules('', 'x = 1'), ['script_language']);
  assert.deepEqual(scriptRules('python', 'import os'), ['script_unsafe']);
  assert.deepEqual(scriptRules('python', 'x == 1'), ['script_unsafe']);
  assert.equal(isAllowedScript('# only a comment'), false);
});

test('an HTTP task needs every request field, an http(s) address, a status code and 1 to 10 attempts', () => {
  assert.deepEqual(httpProblems('h', 'Call', http, t), []);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', {}, t)),
    ['http_url', 'http_method', 'http_param_type', 'http_charset', 'http_content_type', 'http_success_code']);
  assert.deepEqual(httpProblems('h', 'Call', { ...http, url: '' }, t)[0],
    { element: 'h', rule: 'http_url', message: 'rule.http_url {"name":"Call"}' });
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, url: 'ftp://x' }, t)), ['http_url_scheme']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, successCode: '700' }, t)), ['http_success_code']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, successCode: 'ok' }, t)), ['http_success_code']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, attempts: '11' }, t)), ['http_attempts']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, attempts: '0' }, t)), ['http_attempts']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, attempts: '10' }, t)), []);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, resultVariable: '9x' }, t)), ['param_name']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, body: '{not json', headers: '{}' }, t)), ['json_invalid', 'json_invalid']);
  assert.deepEqual(rulesOf(httpProblems('h', 'Call', { ...http, body: '{"a": 1}', headers: '{"X-A": "b"}' }, t)), []);
});

test('a timer waits for an ISO 8601 duration, a date or an allowed expression', () => {
  assert.equal(isTimerLiteral('timeDuration', 'PT5M'), true);
  assert.equal(isTimerLiteral('timeDuration', 'P1DT2H'), true);
  assert.equal(isTimerLiteral('timeDuration', 'PT1.5S'), true);
  assert.equal(isTimerLiteral('timeDuration', 'P'), false);
  assert.equal(isTimerLiteral('timeDuration', 'PT'), false);
  assert.equal(isTimerLiteral('timeDuration', 'P1W2D'), false);
  assert.equal(isTimerLiteral('timeDate', '2026-05-01T09:00'), true);
  assert.equal(isTimerLiteral('timeDate', '2026-05-01T09:00:00+02:00'), true);
  assert.equal(isTimerLiteral('timeDate', '2026-02-30'), false);
  assert.equal(isTimerLiteral('timeDate', '2026-05-01T25:00'), false);
  assert.equal(timerRule('timeDuration', 'PT5M'), null);
  assert.equal(timerRule('timeDuration', "'PT' + str(minutes) + 'M'"), null);
  assert.equal(timerRule('timeDuration', 'in 5 minutes'), 'timer_invalid');
  assert.equal(timerRule('timeDate', 'next monday!'), 'timer_invalid');
  assert.equal(timerRule('timeDuration', ''), 'timer_required');
  assert.equal(timerRule(null, 'PT5M'), 'timer_required');
});

test('the nodes of a diagram list their settings problems with the server’s rule names', () => {
  const script = el('s', 'bpmn:ScriptTask', bo('bpmn:ScriptTask', { name: 'Calc', scriptFormat: 'python' }));
  const service = el('h', 'bpmn:ServiceTask', bo('bpmn:ServiceTask', {}, { 'atrium:type': 'http', 'atrium:url': 'https://x.test' }));
  const plain = el('p', 'bpmn:ServiceTask', bo('bpmn:ServiceTask'));
  const timer = el('w', 'bpmn:IntermediateCatchEvent', bo('bpmn:IntermediateCatchEvent', {
    eventDefinitions: [{ $type: 'bpmn:TimerEventDefinition', timeDuration: { body: 'soon please' } }],
  }));
  const empty = el('e', 'bpmn:BoundaryEvent', bo('bpmn:BoundaryEvent', { eventDefinitions: [{ $type: 'bpmn:TimerEventDefinition' }] }));
  const task = el('t', 'bpmn:Task', bo('bpmn:Task', {
    extensionElements: { values: [
      { $type: 'atrium:property', name: '1abc', value: '3' },
      { $type: 'atrium:property', name: 'days', value: 'x', type: 'number' },
      { $type: 'atrium:range', min: '5', max: '1' },
    ] },
  }));
  const label = { id: 's_label', type: 'label', businessObject: script.businessObject };
  const all = diagramProblems([script, service, plain, timer, empty, task, label] as any, t);
  assert.deepEqual(all.map((p) => `${p.element}:${p.rule}`), [
    's:script_content',
    'h:http_method', 'h:http_param_type', 'h:http_charset', 'h:http_content_type', 'h:http_success_code',
    'p:unsupported',
    'w:timer_invalid',
    'e:timer_required',
    't:param_name', 't:value_numeric', 't:range_order',
  ]);
  assert.equal(all[0].message, 'rule.script_content {"name":"Calc"}');
  assert.equal(all.find((p) => p.element === 'e')?.message, 'rule.timer_required {"name":"boundaryEvent","value":""}');
  assert.deepEqual(nodeProblems(el('f', 'bpmn:SequenceFlow', { $type: 'bpmn:SequenceFlow', $instanceOf: () => false }), t), []);
});

test('diagrams are imported from .bpmn and .xml files only', () => {
  assert.equal(hasFileType('leave.bpmn'), true);
  assert.equal(hasFileType('LEAVE.XML'), true);
  assert.equal(hasFileType('leave.txt'), false);
  assert.equal(hasFileType('leave.bpmn.exe'), false);
});

test('every settings rule and label is in all five languages', () => {
  const root = path.resolve(process.cwd(), 'i18n');
  const rules = ['param_name', 'kv_required', 'value_numeric', 'range_order', 'json_invalid', 'script_language', 'script_content',
    'script_unsafe', 'http_url', 'http_method', 'http_param_type', 'http_charset', 'http_content_type', 'http_success_code',
    'http_url_scheme', 'http_attempts', 'timer_required', 'timer_invalid', 'file_type', 'unsupported'];
  const labels = ['scriptLanguage', 'scriptContent', 'httpTask', 'httpUrl', 'httpMethod', 'httpParamType', 'httpCharset', 'httpContentType',
    'httpSuccessCode', 'httpAttempts', 'httpResultVariable', 'httpHeaders', 'httpBody', 'timerKind', 'timerValue', 'timeDuration', 'timeDate',
    'parameters', 'paramName', 'paramValue', 'paramNumeric', 'addParameter', 'removeParameter', 'interval', 'intervalMin', 'intervalMax'];
  const english: Record<string, string> = {
    kv_required: 'Key and value are required',
    range_order: 'The interval maximum cannot be less than the minimum',
  };
  for (const locale of ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu']) {
    const bundle = JSON.parse(readFileSync(path.join(root, locale, 'process.json'), 'utf8'));
    for (const rule of rules) assert.ok(bundle.rule[rule], `${locale} rule.${rule}`);
    for (const label of labels) assert.ok(bundle.web[label], `${locale} web.${label}`);
    if (locale === 'en-us') for (const [rule, text] of Object.entries(english)) assert.equal(bundle.rule[rule], text);
  }
});
