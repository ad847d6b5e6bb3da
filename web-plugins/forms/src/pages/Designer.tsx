import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Card, Checkbox, Col, Input, InputNumber, Popconfirm, Row, Segmented, Space, Table, Tag, Typography } from 'antd';
import { arrayMove } from '@dnd-kit/sortable';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormInfo } from '../api';
import { buildSchema, type FieldDraft, formNames, fromSchema, LAYOUT_CODES, type LayoutCode, layoutsOf, LOCALES } from '../design';
import { DragArea } from '../designer/DragArea';
import { FieldSettings, LANGUAGE_NAMES } from '../designer/FieldSettings';
import { type CanvasField, createField, insertAt, nextUid, withUid } from '../designer/model';

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
  const [layout, setLayout] = useState<LayoutCode>('L1');
  const [allowEdit, setAllowEdit] = useState(false);
  const [fields, setFields] = useState<CanvasField[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [saved, setSaved] = useState<{ formId: string; version: number } | null>(null);
  const dictTypes = useDictionaryTypes();
  useEffect(() => {
    if (!formId) return;
    formsApi.detail(formId).then((d) => {
      setCode(d.code); setNames({ ...d.name }); setAllowEdit(Boolean(d.allowEdit));
      setColumns(d.layouts?.L1?.columns || 2); setFields(fromSchema(d.schema).map(withUid));
      setSaved({ formId: d.formId, version: d.version });
    }, () => undefined);
  }, [formId]);
  const layouts = layoutsOf(columns);
  const add = (kind: string, index: number) => {
    const uid = nextUid();
    const label = t(`web.kinds.${kind}`);
    setFields((fs) => insertAt(fs, index, createField(kind, fs, label, uid)));
    setSelected(uid);
  };
  const move = (from: number, to: number) => setFields((fs) => arrayMove(fs, from, to));
  const set = (uid: string, patch: Partial<FieldDraft>) => setFields((fs) => fs.map((f) => (f.uid === uid ? { ...f, ...patch } : f)));
  const select = (index: number) => {
    const uid = fields[index]?.uid;
    if (!uid) return;
    setSelected(uid);
    document.getElementById(`design-field-${uid}`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };
  const save = async () => {
    const body = { formId: saved ? Number(saved.formId) : undefined, code, name: formNames(names, code), allowEdit, schema: buildSchema(fields), layouts };
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
  const selectedIndex = fields.findIndex((f) => f.uid === selected);
  return (
    <Card title={t('web.designer')} extra={<Button onClick={onDone}>{t('web.back')}</Button>}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input addonBefore={t('web.code')} value={code} onChange={(e) => setCode(e.target.value)} data-testid="design-code" />
        <InputNumber addonBefore={t('web.columns')} min={1} max={4} value={columns} onChange={(v) => setColumns(Number(v) || 1)} data-testid="design-columns" />
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
      <Space wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('web.canvas.layout')}</Typography.Text>
        <Segmented<LayoutCode> value={layout} onChange={setLayout} data-testid="canvas-layout"
          options={LAYOUT_CODES.map((l) => ({ value: l, label: t('web.canvas.layoutColumns', { layout: l, columns: layouts[l].columns }) }))} />
        <Typography.Text type="secondary">{t('web.canvas.hint')}</Typography.Text>
      </Space>
      <DragArea fields={fields} columns={layouts[layout].columns} selected={selectedIndex < 0 ? null : selectedIndex} t={t} locale={t.locale}
        onAdd={add} onMove={move} onSelect={select} />
      {fields.length > 0 && <Typography.Title level={5}>{t('web.canvas.settings')}</Typography.Title>}
      {fields.map((f, i) => (
        <FieldSettings key={f.uid} field={f} index={i} others={fields.filter((o) => o.key !== f.key)} dictTypes={dictTypes} selected={f.uid === selected} t={t} locale={t.locale}
          onChange={(patch) => set(f.uid, patch)} onRemove={() => setFields((fs) => fs.filter((x) => x.uid !== f.uid))} />
      ))}
      <Space>
        <Button onClick={() => save().catch(() => undefined)} data-testid="design-save">{t('web.saveVersion')}</Button>
        <Button type="primary" onClick={() => publish().catch(() => undefined)} data-testid="design-publish">{t('web.publish')}</Button>
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
  const load = useCallback(() => { formsApi.list('', 1, 200).then((r) => setRows(r.list), () => undefined); }, []);
  useEffect(load, [load]);
  if (editing !== undefined) return <Editor formId={editing} onDone={() => { setEditing(undefined); load(); }} />;
  return (
    <Card title={t('web.forms')} extra={<Button type="primary" onClick={() => setEditing(null)} data-testid="design-new">{t('web.newForm')}</Button>}>
      <Table rowKey="formId" size="small" dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} columns={[
        { title: t('web.code'), dataIndex: 'code', render: (code: string) => <Typography.Text code>{code}</Typography.Text> },
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
