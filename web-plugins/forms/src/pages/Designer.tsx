import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Card, Checkbox, Col, Input, InputNumber, Popconfirm, Row, Select, Space, Table, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormInfo } from '../api';
import { buildSchema, DEFAULT_KINDS, DICT_KINDS, type FieldDraft, formNames, fromSchema, KINDS, LOCALES, newField } from '../design';

/** Each language by its own name (the same in every language). */
const LANGUAGE_NAMES: Record<string, string> = { 'zh-cn': '简体中文', 'zh-tw': '繁體中文', 'en-us': 'English', 'vi-vn': 'Tiếng Việt', 'hu-hu': 'Magyar' };

const GROUP = { marginBottom: 8 };

/** The dictionary types an administrator may take choices from (the platform's dictionaries). */
function useDictionaryTypes(): string[] {
  const [types, setTypes] = useState<string[]>([]);
  useEffect(() => {
    formsApi.dictionaryTypes().then((r) => setTypes(r.types || []), () => setTypes([]));
  }, []);
  return types;
}

function Editor({ formId, onDone }: { formId: string | null; onDone: () => void }) {
  const t = useT('forms');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [columns, setColumns] = useState(2);
  const [allowEdit, setAllowEdit] = useState(false);
  const [fields, setFields] = useState<FieldDraft[]>([]);
  const [saved, setSaved] = useState<{ formId: string; version: number } | null>(null);
  const dictTypes = useDictionaryTypes();
  useEffect(() => {
    if (!formId) return;
    formsApi.detail(formId).then((d) => {
      setCode(d.code); setNames({ ...d.name }); setAllowEdit(Boolean(d.allowEdit));
      setColumns(d.layouts?.L1?.columns || 2); setFields(fromSchema(d.schema));
      setSaved({ formId: d.formId, version: d.version });
    });
  }, [formId]);
  const add = (kind: string) => setFields((fs) => [...fs, newField(kind, fs.length + 1, t(`web.kinds.${kind}`))]);
  const set = (i: number, patch: Partial<FieldDraft>) => setFields((fs) => fs.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const setLabel = (i: number, locale: string, text: string) => setFields((fs) => fs.map((f, j) => (j === i ? { ...f, labels: { ...f.labels, [locale]: text } } : f)));
  const move = (i: number, d: number) => setFields((fs) => {
    const out = [...fs]; const j = i + d; if (j < 0 || j >= out.length) return fs; [out[i], out[j]] = [out[j], out[i]]; return out;
  });
  const save = async () => {
    const body = { formId: saved ? Number(saved.formId) : undefined, code, name: formNames(names, code), allowEdit, schema: buildSchema(fields), layouts: { L1: { columns }, L2: { columns: 2 }, L3: { columns: 3 } } };
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
        <InputNumber addonBefore={t('web.columns')} min={1} max={4} value={columns} onChange={(v) => setColumns(Number(v) || 1)} />
        <Checkbox checked={allowEdit} onChange={(e) => setAllowEdit(e.target.checked)} data-testid="design-allow-edit">{t('web.allowEdit')}</Checkbox>
      </Space>
      <Row gutter={[8, 8]} style={{ marginBottom: 12 }}>
        {LOCALES.map((loc) => (
          <Col key={loc} xs={24} sm={12} lg={8}>
            <Input addonBefore={`${t('web.name')} · ${LANGUAGE_NAMES[loc]}`} value={names[loc] || ''} onChange={(e) => setNames((n) => ({ ...n, [loc]: e.target.value }))}
              data-testid={loc === 'zh-cn' ? 'design-name' : `design-name-${loc}`} />
          </Col>
        ))}
      </Row>
      <Space wrap style={{ marginBottom: 12 }}>
        {KINDS.map((k) => <Button key={k} size="small" onClick={() => add(k)} data-testid={`add-${k}`}>+ {t(`web.kinds.${k}`)}</Button>)}
      </Space>
      {fields.map((f, i) => (
        <Card key={i} size="small" style={{ marginBottom: 8 }} data-testid={`design-field-${i}`} title={<Space><Tag>{t(`web.kinds.${f.kind}`)}</Tag>{f.key}</Space>}
          extra={<Space><Button size="small" onClick={() => move(i, -1)}>↑</Button><Button size="small" onClick={() => move(i, 1)}>↓</Button><Button size="small" danger onClick={() => setFields((fs) => fs.filter((_, j) => j !== i))}>{t('web.delete')}</Button></Space>}>
          {/* one group a line: naming, the value's rules, the choices and when it shows, the label per language */}
          <Row gutter={[8, 8]} style={GROUP}>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.key')} value={f.key} onChange={(e) => set(i, { key: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.label')} value={f.label} onChange={(e) => set(i, { label: e.target.value })} data-testid={`label-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.help')} value={f.help} onChange={(e) => set(i, { help: e.target.value })} /></Col>
            <Col xs={24} sm={12} lg={6}><Checkbox checked={f.required} onChange={(e) => set(i, { required: e.target.checked })} data-testid={`required-${i}`}>{t('web.required')}</Checkbox></Col>
          </Row>
          <Row gutter={[8, 8]} style={GROUP}>
            <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: '100%' }} addonBefore={t('web.min')} value={f.min ?? null} onChange={(v) => set(i, { min: v as number | null })} data-testid={`min-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><InputNumber style={{ width: '100%' }} addonBefore={t('web.max')} value={f.max ?? null} onChange={(v) => set(i, { max: v as number | null })} data-testid={`max-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.pattern')} value={f.pattern} onChange={(e) => set(i, { pattern: e.target.value })} /></Col>
            {DEFAULT_KINDS.has(f.kind) && (
              <Col xs={24} sm={12} lg={6}><Input addonBefore={t('web.default')} value={f.defaultValue} onChange={(e) => set(i, { defaultValue: e.target.value })} data-testid={`default-${i}`} /></Col>
            )}
          </Row>
          <Row gutter={[8, 8]} style={GROUP}>
            <Col xs={24} sm={12} lg={6}><Input addonBefore={t(f.kind === 'table' ? 'web.columnsOfTable' : 'web.options')} value={f.options} disabled={Boolean(f.dict)} onChange={(e) => set(i, { options: e.target.value })} data-testid={`options-${i}`} /></Col>
            <Col xs={24} sm={12} lg={6}>
              {DICT_KINDS.has(f.kind) && (
                <Select style={{ width: '100%' }} allowClear showSearch placeholder={t('web.dict')} value={f.dict || undefined} onChange={(v) => set(i, { dict: v || '' })}
                  options={dictTypes.map((d) => ({ value: d, label: d }))} data-testid={`dict-${i}`} />
              )}
            </Col>
            <Col xs={24} sm={12} lg={6}><Select style={{ width: '100%' }} allowClear placeholder={t('web.visibleIf')} value={f.visibleField || undefined} onChange={(v) => set(i, { visibleField: v || '' })} options={fields.filter((o) => o.key !== f.key).map((o) => ({ value: o.key, label: o.label }))} /></Col>
            <Col xs={24} sm={12} lg={6}><Input addonBefore="=" value={f.visibleValue} onChange={(e) => set(i, { visibleValue: e.target.value })} /></Col>
          </Row>
          <Row gutter={[8, 8]}>
            {LOCALES.map((loc) => (
              <Col key={loc} xs={24} sm={12} lg={8}>
                <Input addonBefore={`${t('web.label')} · ${LANGUAGE_NAMES[loc]}`} value={f.labels[loc] || ''} onChange={(e) => setLabel(i, loc, e.target.value)} data-testid={`label-${i}-${loc}`} />
              </Col>
            ))}
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
