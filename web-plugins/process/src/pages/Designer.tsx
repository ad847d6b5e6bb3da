import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, App, Button, Card, Col, Drawer, Flex, Grid, Input, List, Popconfirm, Row, Space, Tabs, Upload } from 'antd';
import { RequestError, saveBlob, useT } from '@atrium/sdk';
import { processApi, type Problem } from '../api';
import { loadBpmnStyles, loadPanelStyles } from './bpmnStyles';
import { atriumRulesModule, connectRefusal, diagramProblems, reconnectRefusal, type Refusal } from './designerRules';
import { canvasTranslateModule } from './canvasTranslate';
import { keepFitted } from './canvasFit';
import { atriumPaletteModule } from './designerPalette';
import { ATRIUM_NS, FILE_TYPES, hasFileType } from './nodeModel';
import { ElementSettings } from './settings/ElementSettings';

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

/** The lines that a click on their problem cannot help with in the settings. */
const LINE_RULES = new Set(['self_connect', 'duplicate', 'loopback', 'dangling']);

/** Draw a diagram (the caller fits it into the canvas: `keepFitted`). */
async function showDiagram(modeler: Modeler, xml: string): Promise<void> {
  await modeler.importXML(xml);
  modeler.getDefinitions().$attrs['xmlns:atrium'] = ATRIUM_NS;
}

/** The rules the canvas checks as the user draws (the server checks them all again on save and deploy). */
function canvasProblems(modeler: Modeler, t: (k: string, o?: any) => string): Problem[] {
  return diagramProblems(modeler.get('elementRegistry').getAll(), t);
}

function keyProblem(key: string, t: (k: string) => string): string {
  if (!key.trim()) return t('rule.key_required');
  if (!/^[A-Za-z]/.test(key.trim())) return t('rule.key_letter');
  if (!KEY_FORMAT.test(key.trim())) return t('rule.key_format');
  return '';
}

type SideTab = 'panel' | 'settings';

/** The canvas's keyboard focus ring in the theme's blue rather than the browser's black frame. */
const CANVAS_CSS = '.at-process-canvas .djs-container svg:focus-visible{outline:2px solid rgba(22,119,255,.45)}'
  + '.at-process-canvas .djs-container svg:focus:not(:focus-visible){outline:none}';

/** `/process_manage/design/:modelId` (`new` for a new model): the bpmn-js canvas with its properties panel, the
 * plugin's settings, the rules as the user draws, save, deploy, export. */
export function DesignerPage() {
  const t = useT('process');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const narrow = !Grid.useBreakpoint().lg;
  const ref = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement | null>(null);
  const modelerRef = useRef<Modeler>(null);
  const fitRef = useRef<ReturnType<typeof keepFitted> | null>(null);
  const idPart = useLocation().pathname.split('/').filter(Boolean)[2] || 'new';
  const [modelId, setModelId] = useState<string | null>(idPart === 'new' ? null : idPart);
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [selected, setSelected] = useState<any>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [tab, setTab] = useState<SideTab>('panel');
  const [drawer, setDrawer] = useState(false);
  const [ready, setReady] = useState(false);
  const recheck = useCallback(() => { if (modelerRef.current) setProblems(canvasProblems(modelerRef.current, t)); }, [t]);
  useEffect(() => { recheck(); }, [recheck]);

  /** The panel's box moves between the side column and the phone's drawer: the panel follows it. */
  const attachPanel = useCallback((el: HTMLDivElement | null) => {
    panelRef.current = el;
    if (el && modelerRef.current) modelerRef.current.get('propertiesPanel').attachTo(el);
  }, []);

  // The modeler is made once, for the model the page opened on (a new model keeps its modeler when it is first
  // saved): what it calls back reads the current language through these effect events.
  const problemsOf = useEffectEvent((modeler: Modeler) => canvasProblems(modeler, t));
  const loadFailed = useEffectEvent((e: unknown) => { console.error(e); message.error(String(e)); });
  const openedModel = useEffectEvent(async (): Promise<string> => {
    if (!modelId) return EMPTY;
    const d = await processApi.model(modelId);
    setKey(d.key); setName(d.name); setCategory(d.category);
    return d.xml;
  });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      loadBpmnStyles();
      loadPanelStyles();
      const [{ default: BpmnModeler }, panel] = await Promise.all([
        import(/* webpackChunkName: "bpmn-modeler" */ 'bpmn-js/lib/Modeler'),
        import(/* webpackChunkName: "bpmn-modeler" */ 'bpmn-js-properties-panel'),
      ]);
      if (cancelled || !ref.current) return;
      const modeler: Modeler = new BpmnModeler({
        container: ref.current,
        propertiesPanel: { layout: { groups: { general: { open: true } } } },
        additionalModules: [panel.BpmnPropertiesPanelModule, panel.BpmnPropertiesProviderModule, atriumRulesModule, atriumPaletteModule, canvasTranslateModule],
      });
      modelerRef.current = modeler;
      if (panelRef.current) modeler.get('propertiesPanel').attachTo(panelRef.current);
      await showDiagram(modeler, await openedModel());
      if (cancelled || !ref.current) return;
      fitRef.current = keepFitted(modeler.get('canvas'), modeler.get('eventBus'), ref.current);
      modeler.on('selection.changed', (e: any) => setSelected(e.newSelection?.[0] || null));
      modeler.on('commandStack.changed', () => { setRefused(null); setProblems(problemsOf(modeler)); });
      // A refused line never reaches the diagram: say why, beside the canvas.
      modeler.on('connect.end', 1500, (e: any) => { const r = connectRefusal(e.context); if (r) setRefused(r); });
      modeler.on('bendpoint.move.end', 1500, (e: any) => { const r = reconnectRefusal(e.context); if (r) setRefused(r); });
      setProblems(problemsOf(modeler));
      setReady(true);
    })().catch((e) => loadFailed(e));
    return () => {
      cancelled = true;
      fitRef.current?.stop();
      fitRef.current = null;
      modelerRef.current?.destroy();
      modelerRef.current = null;
    };
  }, []);

  useEffect(() => { modelerRef.current?.get('canvas').resized(); }, [narrow]);
  // The language changed: the palette and the properties panel draw their texts again.
  useEffect(() => {
    const bus = modelerRef.current?.get('eventBus');
    if (!bus) return;
    bus.fire('i18n.changed');
    bus.fire('propertiesPanel.providersChanged');
  }, [t.locale]);

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
  /** A diagram file replaces the drawing (saved only with Save); any other file is refused as the server would. */
  const importFile = async (file: File): Promise<false> => {
    setServerProblems([]);
    if (!hasFileType(file.name)) {
      const text = t('rule.file_type', { types: FILE_TYPES.join(', ') });
      setServerProblems([{ element: 'file', rule: 'file_type', message: text }]);
      message.error(text);
      return false;
    }
    try {
      await showDiagram(modelerRef.current, await file.text());
      fitRef.current?.refit();
      setSelected(null);
      recheck();
    } catch (e) {
      const text = t('rule.xml_invalid', { reason: String((e as Error).message || e).slice(0, 120) });
      setServerProblems([{ element: 'xml', rule: 'xml_invalid', message: text }]);
      message.error(text);
    }
    return false;
  };
  const exportFile = async () => saveBlob(new Blob([await xmlOut()], { type: 'application/xml' }), `${key || 'process'}.bpmn`);
  /** A problem's line or node is selected, and its settings shown (a refused line has none to change). */
  const show = (p: Problem) => {
    const m = modelerRef.current;
    const el = m?.get('elementRegistry').get(p.element);
    if (!el) return;
    m.get('selection').select(el);
    if (!LINE_RULES.has(p.rule)) setTab('settings');
    if (narrow) setDrawer(true);
  };
  const all = [...problems, ...serverProblems.filter((s) => !problems.some((p) => p.element === s.element && p.rule === s.rule))];
  const keyError = key ? keyProblem(key, t) : '';
  const field = narrow ? { width: '100%' } : { width: 260 };

  const side = (
    <Tabs size="small" activeKey={tab} onChange={(k) => setTab(k as SideTab)} data-testid="process-side" items={[
      { key: 'panel', label: t('web.properties'), forceRender: true,
        children: <div ref={attachPanel} className="at-process-panel" data-testid="process-properties-panel" style={{ maxHeight: narrow ? undefined : 520, overflow: 'auto', border: '1px solid rgba(128,128,128,.2)' }} /> },
      { key: 'settings', label: t('web.settings'), forceRender: true,
        children: ready ? <ElementSettings modeler={modelerRef.current} element={selected} onChange={recheck} /> : null },
    ]} />
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Flex wrap gap={8} vertical={narrow}>
        <style>{CANVAS_CSS}</style>
        <Input addonBefore={t('web.key')} value={key} onChange={(e) => setKey(e.target.value)} status={keyError ? 'error' : undefined} data-testid="process-key" style={field} />
        <Input addonBefore={t('web.name')} value={name} onChange={(e) => setName(e.target.value)} data-testid="process-name" style={field} />
        <Input addonBefore={t('web.category')} value={category} onChange={(e) => setCategory(e.target.value)} style={narrow ? field : { width: 200 }} />
        <Space wrap>
          <Button type="primary" onClick={save} disabled={!ready} data-testid="process-save">{t('web.save')}</Button>
          <Popconfirm title={t('web.deployTitle')} description={t('web.deploySaveConfirm')} okText={t('web.deploy')}
            cancelText={t('web.cancel')} onConfirm={deploy} disabled={!ready}>
            <Button disabled={!ready} data-testid="process-deploy">{t('web.deploy')}</Button>
          </Popconfirm>
          <Upload accept={FILE_TYPES.join(',')} showUploadList={false} beforeUpload={(f) => importFile(f as File)} disabled={!ready}>
            <Button disabled={!ready} data-testid="process-import">{t('web.import')}</Button>
          </Upload>
          <Button onClick={exportFile} disabled={!ready}>{t('web.export')}</Button>
          {narrow && <Button onClick={() => setDrawer(true)} disabled={!ready} data-testid="process-open-panel">{t('web.properties')}</Button>}
          <Button onClick={() => navigate('/process_manage')}>{t('web.back')}</Button>
        </Space>
      </Flex>
      {keyError && <Alert type="error" showIcon message={keyError} data-testid="process-key-error" />}
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={16}>
          <div ref={ref} className="at-process-canvas" style={{ height: narrow ? 440 : 600, border: '1px solid rgba(128,128,128,.3)', background: '#fff' }} data-testid="process-canvas" />
          {refused && (
            // under the canvas: it covers no node, and the drawing does not move when it shows
            <Alert type="warning" showIcon closable onClose={() => setRefused(null)} role="alert" style={{ marginTop: 8 }}
              message={t(`rule.${refused}`)} data-testid="process-refused" data-rule={refused} />
          )}
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t('web.problems')} style={{ marginBottom: 12 }}>
            <List size="small" dataSource={all} locale={{ emptyText: '—' }} data-testid="process-problems"
              renderItem={(p) => (
                <List.Item style={{ cursor: 'pointer', color: '#cf1322' }} data-testid={`process-problem-${p.rule}`} onClick={() => show(p)}>
                  {p.message}
                </List.Item>
              )} />
          </Card>
          {!narrow && side}
        </Col>
      </Row>
      {narrow && (
        <Drawer open={drawer} onClose={() => setDrawer(false)} forceRender placement="bottom" size="75%" title={t('web.properties')} rootClassName="at-process-drawer">
          {side}
        </Drawer>
      )}
    </Space>
  );
}
