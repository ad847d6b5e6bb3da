import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Card, Checkbox, Col, Input, InputNumber, Popconfirm, Row, Select, Space, Table, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormInfo, type Json } from '../api';

export const KINDS = ['text', 'textarea', 'number', 'select', 'radio', 'checkbox', 'date', 'daterange', 'user', 'member', 'file', 'image', 'table', 'section', 'divider'] as const;

export interface FieldDraft {
  key: string;
  kind: string;
  label: string;
  labelEn: string;
  required: boolean;
  help: string;
  options: string;
  min?: number | null;
  max?: number | null;
  pattern: string;
  visibleField: string;
  visibleValue: string;
}

/** One designer field to its JSON Schema property. */
export function fieldSchema(f: FieldDraft): Json {
  const base: Json = { title: f.label || f.key, 'x-kind': f.kind, 'x-i18n': f.labelEn ? { 'en-us': f.labelEn } : {} };
  if (f.help) base.description = f.help;
  if (f.visibleField) base['x-visibleIf'] = { field: f.visibleField, value: f.visibleValue };
  const opts = f.options.split(',').map((s) => s.trim()).filter(Boolean);
  const range = (p: Json, lo: string, hi: string) => {
    if (f.min !== undefined && f.min !== null) p[lo] = f.min;
    if (f.max !== undefined && f.max !== null) p[hi] = f.max;
    return p;
  };
  switch (f.kind) {
    case 'number': return range({ ...base, type: 'number' }, 'minimum', 'maximum');
    case 'select': case 'radio': return { ...base, type: 'string', enum: opts.length ? opts : ['A', 'B'] };
    case 'checkbox': return opts.length ? { ...base, type: 'array', items: { type: 'string', enum: opts }, uniqueItems: true } : { ...base, type: 'boolean' };
    case 'date': return { ...base, type: 'string', format: 'date' };
    case 'daterange': return { ...base, type: 'array', items: { type: 'string', format: 'date' }, minItems: 2, maxItems: 2 };
    case 'user': case 'member': return { ...base, type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    case 'file': case 'image': return { ...base, type: 'array', items: { type: 'object' }, maxItems: f.kind === 'image' ? 5 : 20 };
    case 'table': return { ...base, type: 'array', maxItems: 10000, items: { type: 'object', properties: Object.fromEntries((opts.length ? opts : ['item']).map((c) => [c, { type: 'string', title: c }])) } };
    case 'section': case 'divider': return { ...base, type: 'null' };
    default: {
      const p: Json = range({ ...base, type: 'string' }, 'minLength', 'maxLength');
      if (f.pattern) p.pattern = f.pattern;
      return p;
    }
  }
}

/** The designer's fields to the form's JSON Schema (required-when-visible as allOf if/then). */
export function buildSchema(fields: FieldDraft[]): Json {
  const properties: Json = {};
  const required: string[] = [];
  const allOf: Json[] = [];
  for (const f of fields) {
    properties[f.key] = fieldSchema(f);
    if (!f.required || ['section', 'divider'].includes(f.kind)) continue;
    if (f.visibleField) allOf.push({ if: { properties: { [f.visibleField]: { const: f.visibleValue } }, required: [f.visibleField] }, then: { required: [f.key] } });
    else required.push(f.key);
  }
  return { type: 'object', properties, required, ...(allOf.length ? { allOf } : {}) };
}

function fromSchema(schema: Json): FieldDraft[] {
  const req = new Set<string>(schema.required || []);
  return Object.entries<Json>(schema.properties || {}).map(([key, p]) => ({
    key, kind: p['x-kind'] || 'text', label: p.title || key, labelEn: p['x-i18n']?.['en-us'] || '', required: req.has(key),
    help: p.description || '', options: (p.enum || p.items?.enum || []).join(','), min: p.minimum ?? p.minLength, max: p.maximum ?? p.maxLength,
    pattern: p.pattern || '', visibleField: p['x-visibleIf']?.field || '', visibleValue: p['x-visibleIf']?.value || '',
  }));
}

function Editor({ formId, onDone }: { formId: string | null; onDone: () => void }) {
  const t = useT('forms');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [nameEn, setNameEn] = useState('');
  const [columns, setColumns] = useState(2);
  const [fields, setFields] = useState<FieldDraft[]>([]);
  const [saved, setSaved] = useState<{ formId: string; version: number } | null>(null);
  useEffect(() => {
    if (!formId) return;
    formsApi.detail(formId).then((d) => {
      setCode(d.code); setName(d.name['zh-cn'] || ''); setNameEn(d.name['en-us'] || '');
      setColumns(d.layouts?.L1?.columns || 2); setFields(fromSchema(d.schema));
      setSaved({ formId: d.formId, version: d.version });
    });
  }, [formId]);
  const add = (kind: string) => setFields((fs) => [...fs, { key: `${kind}${fs.length + 1}`, kind, label: t(`web.kinds.${kind}`), labelEn: '', required: false, help: '', options: '', pattern: '', visibleField: '', visibleValue: '' }]);
  const set = (i: number, patch: Partial<FieldDraft>) => setFields((fs) => fs.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const move = (i: number, d: number) => setFields((fs) => {
    const out = [...fs]; const j = i + d; if (j < 0 || j >= out.length) return fs; [out[i], out[j]] = [out[j], out[i]]; return out;
  });
  const save = async () => {
    const body = { formId: saved ? Number(saved.formId) : undefined, code, name: { 'zh-cn': name || code, ...(nameEn ? { 'en-us': nameEn } : {}) }, schema: buildSchema(fields), layouts: { L1: { columns }, L2: { columns: 2 }, L3: { columns: 3 } } };
    const res = await formsApi.save(body);
    setSaved({ formId: res.formId, version: res.version });
    message.success(t('web.savedVersion', { version: res.version }));
    return res;
  };
  const publish = async () => {
    const res = await save();
    await formsApi.publish(res.formId, res.version);
    message.success(t('web.published', { version: res.version }));
  };
  return (
    <Card title={t('web.designer')} extra={<Button onClick={onDone}>{t('web.back')}</Button>}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input addonBefore={t('web.code')} value={code} onChange={(e) => setCode(e.target.value)} data-testid="design-code" />
        <Input addonBefore={t('web.name')} value={name} onChange={(e) => setName(e.target.value)} data-testid="design-name" />
        <Input addonBefore="English" value={nameEn} onChange={(e) => setNameEn(e.target.value)} />
        <InputNumber addonBefore={t('web.columns')} min={1} max={4} value={columns} onChange={(v) => setColumns(Number(v) || 1)} />
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        {KINDS.map((k) => <Button key={k} size="small" onClick={() => add(k)} data-testid={`add-${k}`}>+ {t(`web.kinds.${k}`)}</Button>)}
      </Space>
      {fields.map((f, i) => (
        <Card key={i} size="small" style={{ marginBottom: 8 }} data-testid={`design-field-${i}`} title={<Space><Tag>{t(`web.kinds.${f.kind}`)}</Tag>{f.key}</Space>}
          extra={<Space><Button size="small" onClick={() => move(i, -1)}>↑</Button><Button size="small" onClick={() => move(i, 1)}>↓</Button><Button size="small" danger onClick={() => setFields((fs) => fs.filter((_, j) => j !== i))}>{t('web.delete')}</Button></Space>}>
          <Row gutter={[8, 8]}>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.key')} value={f.key} onChange={(e) => set(i, { key: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.label')} value={f.label} onChange={(e) => set(i, { label: e.target.value })} data-testid={`label-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore="English" value={f.labelEn} onChange={(e) => set(i, { labelEn: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={6}><Checkbox checked={f.required} onChange={(e) => set(i, { required: e.target.checked })} data-testid={`required-${i}`}>{t('web.required')}</Checkbox></Col>
            <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: "100%" }} addonBefore={t('web.min')} value={f.min ?? null} onChange={(v) => set(i, { min: v as number | null })} data-testid={`min-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: "100%" }} addonBefore={t('web.max')} value={f.max ?? null} onChange={(v) => set(i, { max: v as number | null })} data-testid={`max-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.pattern')} value={f.pattern} onChange={(e) => set(i, { pattern: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.options')} value={f.options} onChange={(e) => set(i, { options: e.target.value })} data-testid={`options-${i}`} /></Col>
            <Col xs={24} sm={12} lg={8}><Input addonBefore={t('web.help')} value={f.help} onChange={(e) => set(i, { help: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={8}><Select style={{ width: '100%' }} allowClear placeholder={t('web.visibleIf')} value={f.visibleField || undefined} onChange={(v) => set(i, { visibleField: v || '' })} options={fields.filter((o) => o.key !== f.key).map((o) => ({ value: o.key, label: o.label }))} /></Col>
            <Col xs={24} sm={12} lg={8}><Input addonBefore="=" value={f.visibleValue} onChange={(e) => set(i, { visibleValue: e.target.value })} /></Col>
          </Row>
        </Card>
      ))}
      <Space>
        <Button onClick={save} data-testid="design-save">{t('web.saveVersion')}</Button>
        <Button type="primary" onClick={publish} data-testid="design-publish">{t('web.publish')}</Button>
        <Button disabled={!saved} onClick={() => saved && navigate(`/form-preview?formId=${saved.formId}&version=${saved.version}`)}>{t('web.preview')}</Button>
      </Space>
    </Card>
  );
}

/** `/form-design`: the tenant's forms; a new form or a new version of one is designed in the editor. */
export function DesignerPage() {
  const t = useT('forms');
  const navigate = useNavigate();
  const [rows, setRows] = useState<FormInfo[]>([]);
  const [editing, setEditing] = useState<string | null | undefined>(undefined);
  const load = useCallback(() => { formsApi.list('', 1, 200).then((r) => setRows(r.list)); }, []);
  useEffect(load, [load]);
  if (editing !== undefined) return <Editor formId={editing} onDone={() => { setEditing(undefined); load(); }} />;
  return (
    <Card title={t('web.forms')} extra={<Button type="primary" onClick={() => setEditing(null)} data-testid="design-new">{t('web.newForm')}</Button>}>
      <Table rowKey="formId" size="small" dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} columns={[
        { title: t('web.code'), dataIndex: 'code' },
        { title: t('web.name'), key: 'name', render: (_: unknown, r: FormInfo) => formTitle(r, t.locale) },
        { title: t('web.version'), dataIndex: 'latestVersion' },
        { title: t('web.publishedVersion'), dataIndex: 'publishedVersion', render: (v: number | null) => (v ? <Tag color="green">v{v}</Tag> : <Tag>{t('web.unpublished')}</Tag>) },
        { title: t('web.actions'), key: 'a', render: (_: unknown, r: FormInfo) => (
          <Space>
            <Button size="small" onClick={() => setEditing(r.formId)}>{t('web.edit')}</Button>
            <Button size="small" onClick={() => navigate(`/form-preview?formId=${r.formId}`)}>{t('web.preview')}</Button>
            <Button size="small" disabled={!r.publishedVersion} onClick={() => navigate(`/dynamic-form/render/${r.code}`)}>{t('web.fill')}</Button>
            <Button size="small" onClick={() => navigate(`/dynamic-form/render/${encodeURIComponent(r.code)}/submissions`)}>{t('web.submissions')}</Button>
            <Popconfirm title={t('web.confirmDeleteForm')} onConfirm={() => formsApi.remove(r.formId).then(load)}><Button size="small" danger>{t('web.delete')}</Button></Popconfirm>
          </Space>
        ) },
      ]} />
    </Card>
  );
}
