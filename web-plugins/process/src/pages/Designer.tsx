import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, App, Button, Card, Col, Empty, Form, Input, List, Row, Select, Space } from 'antd';
import { RequestError, saveBlob, useT } from '@atrium/sdk';
import { processApi, type Problem } from '../api';
import { loadBpmnStyles } from './bpmnStyles';

const ATRIUM_NS = 'http://atrium.dev/schema/bpmn';
const KEY_FORMAT = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const EMPTY = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:atrium="${ATRIUM_NS}" id="defs" targetNamespace="http://atrium.dev/bpmn">
  <bpmn:process id="process_1" isExecutable="true"><bpmn:startEvent id="start" name="Start"/></bpmn:process>
  <bpmndi:BPMNDiagram id="diagram"><bpmndi:BPMNPlane id="plane" bpmnElement="process_1">
    <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="160" y="120" width="36" height="36"/></bpmndi:BPMNShape>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>`;

type Modeler = any;

/** The rules the canvas checks as the user draws (the server checks them all again on save and deploy). */
function canvasProblems(modeler: Modeler, t: (k: string, o?: any) => string): Problem[] {
  const registry = modeler.get('elementRegistry');
  const flows = registry.filter((e: any) => e.type === 'bpmn:SequenceFlow');
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const f of flows) {
    const s = f.source?.id;
    const d = f.target?.id;
    if (!s || !d) continue;
    if (s === d) out.push({ element: f.id, rule: 'self_connect', message: t('rule.self_connect') });
    else if (seen.has(`${s}>${d}`)) out.push({ element: f.id, rule: 'duplicate', message: t('rule.duplicate') });
    else if (seen.has(`${d}>${s}`)) out.push({ element: f.id, rule: 'loopback', message: t('rule.loopback') });
    seen.add(`${s}>${d}`);
  }
  for (const g of registry.filter((e: any) => e.type === 'bpmn:ExclusiveGateway' || e.type === 'bpmn:InclusiveGateway')) {
    const outgoing = g.outgoing || [];
    if (outgoing.length < 2) continue;
    const def = g.businessObject.default?.id;
    for (const f of outgoing) {
      if (f.id === def) continue;
      const cond = f.businessObject.conditionExpression;
      if (!cond) out.push({ element: f.id, rule: 'gateway_branch', message: t('rule.gateway_branch') });
      else if (!String(cond.body || '').trim()) out.push({ element: f.id, rule: 'gateway_condition', message: t('rule.gateway_condition') });
    }
  }
  return out;
}

function keyProblem(key: string, t: (k: string) => string): string {
  if (!key.trim()) return t('rule.key_required');
  if (!/^[A-Za-z]/.test(key.trim())) return t('rule.key_letter');
  if (!KEY_FORMAT.test(key.trim())) return t('rule.key_format');
  return '';
}

function Properties({ modeler, element, onChange }: { modeler: Modeler; element: any; onChange: () => void }) {
  const t = useT('process');
  if (!element) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.noSelection')} />;
  const bo = element.businessObject;
  const modeling = modeler.get('modeling');
  const attr = (name: string) => (bo.$attrs?.[`atrium:${name}`] as string) || '';
  const set = (props: Record<string, unknown>) => { modeling.updateProperties(element, props); onChange(); };
  const isTask = element.type === 'bpmn:UserTask';
  const isFlow = element.type === 'bpmn:SequenceFlow';
  return (
    <Form layout="vertical" size="small" key={element.id} data-testid="process-properties">
      <Form.Item label={t('web.element')}><Input value={`${element.type.replace('bpmn:', '')} · ${element.id}`} disabled /></Form.Item>
      <Form.Item label={t('web.name')}><Input defaultValue={bo.name || ''} onBlur={(e) => set({ name: e.target.value })} data-testid="prop-name" /></Form.Item>
      {isTask && (
        <>
          <Form.Item label={t('web.assigneeType')}>
            <Select defaultValue={attr('assigneeType') || 'users'} data-testid="prop-assignee-type" onChange={(v) => set({ 'atrium:assigneeType': v === 'users' ? undefined : v })}
              options={[{ value: 'users', label: t('web.users') }, { value: 'starter', label: t('web.starter') }, { value: 'supervisor', label: t('web.supervisor') }]} />
          </Form.Item>
          <Form.Item label={t('web.assignee')}><Input defaultValue={attr('assignee')} onBlur={(e) => set({ 'atrium:assignee': e.target.value.trim() || undefined })} data-testid="prop-assignee" /></Form.Item>
          <Form.Item label={t('web.roles')}><Input defaultValue={attr('candidateRoles')} onBlur={(e) => set({ 'atrium:candidateRoles': e.target.value.trim() || undefined })} /></Form.Item>
          <Form.Item label={t('web.formKey')}><Input defaultValue={attr('formKey')} onBlur={(e) => set({ 'atrium:formKey': e.target.value.trim() || undefined })} /></Form.Item>
        </>
      )}
      {isFlow && (
        <Form.Item label={t('web.condition')}>
          <Input.TextArea rows={2} defaultValue={bo.conditionExpression?.body || ''} data-testid="prop-condition"
            onBlur={(e) => {
              const body = e.target.value;
              const expr = body ? modeler.get('moddle').create('bpmn:FormalExpression', { body }) : undefined;
              set({ conditionExpression: expr });
            }} />
        </Form.Item>
      )}
    </Form>
  );
}

/** `/process_manage/design/:modelId` (`new` for a new model): the bpmn-js canvas, properties, rules, save, deploy, export. */
export function DesignerPage() {
  const t = useT('process');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const modelerRef = useRef<Modeler>(null);
  const idPart = useLocation().pathname.split('/').filter(Boolean)[2] || 'new';
  const [modelId, setModelId] = useState<string | null>(idPart === 'new' ? null : idPart);
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [selected, setSelected] = useState<any>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [ready, setReady] = useState(false);
  const recheck = useCallback(() => { if (modelerRef.current) setProblems(canvasProblems(modelerRef.current, t)); }, [t]);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      loadBpmnStyles();
      const { default: BpmnModeler } = await import(/* webpackChunkName: "bpmn-modeler" */ 'bpmn-js/lib/Modeler');
      if (cancelled || !ref.current) return;
      const modeler: Modeler = new BpmnModeler({ container: ref.current });
      modelerRef.current = modeler;
      let xml = EMPTY;
      if (modelId) {
        const d = await processApi.model(modelId);
        xml = d.xml; setKey(d.key); setName(d.name); setCategory(d.category);
      }
      await modeler.importXML(xml);
      const defs = modeler.getDefinitions();
      defs.$attrs['xmlns:atrium'] = ATRIUM_NS;
      modeler.get('canvas').zoom('fit-viewport');
      modeler.on('selection.changed', (e: any) => setSelected(e.newSelection?.[0] || null));
      modeler.on('commandStack.changed', () => setProblems(canvasProblems(modeler, t)));
      setProblems(canvasProblems(modeler, t));
      setReady(true);
    })().catch((e) => { console.error(e); message.error(String(e)); });
    return () => { cancelled = true; modelerRef.current?.destroy(); modelerRef.current = null; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const xmlOut = async (): Promise<string> => {
    const { xml } = await modelerRef.current.saveXML({ format: true });
    return xml;
  };
  const save = async (): Promise<string | null> => {
    setServerProblems([]);
    const kp = keyProblem(key, t);
    if (kp) { message.error(kp); return null; }
    try {
      const saved = await processApi.save({ modelId: modelId ? Number(modelId) : undefined, key: key.trim(), name, category, xml: await xmlOut() });
      message.success(t('web.saved', { version: saved.version }));
      if (!modelId) { setModelId(saved.modelId); navigate(`/process_manage/design/${saved.modelId}`, { replace: true }); }
      return saved.modelId;
    } catch (e) {
      if (e instanceof RequestError) {
        setServerProblems((e.data as { errors?: Problem[] } | null)?.errors || [{ element: '', rule: '', message: e.message }]);
        message.error(e.message);
      }
      return null;
    }
  };
  const deploy = async () => {
    const id = await save();
    if (!id) return;
    try { await processApi.deploy(id); message.success(t('web.deployed')); } catch (e) { message.error(String((e as Error).message)); }
  };
  const exportFile = async () => saveBlob(new Blob([await xmlOut()], { type: 'application/xml' }), `${key || 'process'}.bpmn`);
  const all = [...problems, ...serverProblems.filter((s) => !problems.some((p) => p.element === s.element && p.rule === s.rule))];
  const keyError = key ? keyProblem(key, t) : '';

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Input addonBefore={t('web.key')} value={key} onChange={(e) => setKey(e.target.value)} status={keyError ? 'error' : undefined} data-testid="process-key" style={{ width: 260 }} />
        <Input addonBefore={t('web.name')} value={name} onChange={(e) => setName(e.target.value)} data-testid="process-name" style={{ width: 260 }} />
        <Input addonBefore={t('web.category')} value={category} onChange={(e) => setCategory(e.target.value)} style={{ width: 200 }} />
        <Button type="primary" onClick={save} disabled={!ready} data-testid="process-save">{t('web.save')}</Button>
        <Button onClick={deploy} disabled={!ready} data-testid="process-deploy">{t('web.deploy')}</Button>
        <Button onClick={exportFile} disabled={!ready}>{t('web.export')}</Button>
        <Button onClick={() => navigate('/process_manage')}>{t('web.back')}</Button>
      </Space>
      {keyError && <Alert type="error" showIcon message={keyError} data-testid="process-key-error" />}
      <Row gutter={12}>
        <Col span={18}>
          <div ref={ref} style={{ height: 560, border: '1px solid rgba(128,128,128,.3)', background: '#fff' }} data-testid="process-canvas" />
        </Col>
        <Col span={6}>
          <Card size="small" title={t('web.properties')} style={{ marginBottom: 12 }}>
            {ready && <Properties modeler={modelerRef.current} element={selected} onChange={recheck} />}
          </Card>
          <Card size="small" title={t('web.problems')}>
            <List size="small" dataSource={all} locale={{ emptyText: '—' }} data-testid="process-problems"
              renderItem={(p) => (
                <List.Item style={{ cursor: 'pointer', color: '#cf1322' }} data-testid={`process-problem-${p.rule}`}
                  onClick={() => { const el = modelerRef.current?.get('elementRegistry').get(p.element); if (el) modelerRef.current.get('selection').select(el); }}>
                  {p.message}
                </List.Item>
              )} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
