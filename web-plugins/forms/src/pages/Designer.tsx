import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Card, Checkbox, Col, Form, Input, InputNumber, Modal, Popconfirm, Row, Segmented, Select, Space, Switch, Table, Tag, TreeSelect, Typography } from 'antd';
import { arrayMove } from '@dnd-kit/sortable';
import { session, useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormInfo, type MenuSystem, type MenuWish } from '../api';
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

/** Tenant administrators (supervisors) and super administrators: they may put a published form on a menu. */
function isAdmin(profile: { isAdmin?: unknown; isSuperAdmin?: unknown }): boolean {
  return Number(profile.isAdmin) === 2 || profile.isAdmin === true || Number(profile.isSuperAdmin) === 1 || profile.isSuperAdmin === true;
}

/** The publish dialog: "Add to menu" with the system and the parent menu (the server checks the rights). */
function PublishDialog({ open, onCancel, onPublish }: { open: boolean; onCancel: () => void; onPublish: (menu?: MenuWish) => Promise<void> }) {
  const t = useT('forms');
  const [onMenu, setOnMenu] = useState(false);
  const [systems, setSystems] = useState<MenuSystem[]>([]);
  const [systemCode, setSystemCode] = useState<string>();
  const [parentId, setParentId] = useState<string>();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open || !onMenu || systems.length) return;
    formsApi.menuOptions().then((r) => {
      setSystems(r.systems || []);
      setSystemCode((c) => c || r.systems?.[0]?.systemCode);
    }, () => undefined);
  }, [open, onMenu, systems.length]);
  const system = systems.find((s) => s.systemCode === systemCode);
  const ok = () => {
    setBusy(true);
    const menu = onMenu && systemCode ? { systemCode, parentId, name: name.trim() } : undefined;
    onPublish(menu).catch(() => undefined).finally(() => setBusy(false));
  };
  return (
    <Modal open={open} title={t('web.publishTitle')} okText={t('web.publish')} onOk={ok} onCancel={onCancel} confirmLoading={busy}
      okButtonProps={{ disabled: onMenu && !systemCode }} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t('web.addToMenu')}>
          <Switch checked={onMenu} onChange={setOnMenu} data-testid="publish-add-menu" />
        </Form.Item>
        {onMenu && (
          <>
            <Form.Item label={t('web.menuSystem')}>
              <Select value={systemCode} onChange={(v: string) => { setSystemCode(v); setParentId(undefined); }} data-testid="publish-menu-system"
                options={systems.map((s) => ({ value: s.systemCode, label: s.systemName }))} />
            </Form.Item>
            <Form.Item label={t('web.menuParent')}>
              <TreeSelect value={parentId} onChange={(v: string) => setParentId(v)} allowClear treeDefaultExpandAll placeholder={t('web.menuTop')}
                treeData={system?.menus || []} data-testid="publish-menu-parent" />
            </Form.Item>
            <Form.Item label={t('web.menuName')}>
              <Input value={name} maxLength={128} onChange={(e) => setName(e.target.value)} data-testid="publish-menu-name" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
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
  const admin = isAdmin(session.profile);
  const [dialog, setDialog] = useState(false);
  const publish = async (menu?: MenuWish) => {
    const res = await save();
    const out = await formsApi.publish(res.formId, res.version, menu);
    setDialog(false);
    if (out.menu) {
      const place = [out.menu.systemName, out.menu.parentName, out.menu.menuName].filter(Boolean).join(' / ');
      message.success(t('web.publishedToMenu', { version: res.version, place }));
    } else message.success(t('web.published', { version: res.version }));
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
        {admin && <Button onClick={() => setDialog(true)} data-testid="design-publish-dialog">{t('web.publishMore')}</Button>}
        <Button disabled={!saved} onClick={() => saved && navigate(`/form-preview?formId=${saved.formId}&version=${saved.version}`)}>{t('web.preview')}</Button>
      </Space>
      {admin && <PublishDialog open={dialog} onCancel={() => setDialog(false)} onPublish={publish} />}
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
