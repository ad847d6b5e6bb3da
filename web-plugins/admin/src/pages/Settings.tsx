import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { api, isSuperAdmin, type AuditConfig, type DictItem, type GreyRule, type LoginLogRow } from '../api';
import { AdminOnly, PAGE_SIZE, TenantPicker, pager, rowProps } from '../common';

const LOCALES = ['zh-cn', 'zh-tw', 'en-us', 'vi-vn', 'hu-hu'];
const CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

function Dictionaries() {
  const t = useT('admin');
  const [types, setTypes] = useState<string[]>([]);
  const [type, setType] = useState<string>('');
  const [items, setItems] = useState<DictItem[]>([]);
  const [editing, setEditing] = useState<Partial<DictItem> | null>(null);
  const [page, setPage] = useState(1);
  const [form] = Form.useForm();
  const reload = useCallback(() => api.dictionaries(type).then((d) => { setTypes(d.types); setItems(d.items); }), [type]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  const open = (d: Partial<DictItem>) => { form.resetFields(); form.setFieldsValue({ dicType: type, sort: 0, public: true, ...d }); setEditing(d); };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Select showSearch style={{ width: 260 }} value={type || undefined} placeholder={t('web.dicType')} onChange={(v) => { setType(v); setPage(1); }} options={types.map((x) => ({ value: x, label: x }))} />
        {isSuperAdmin() && <Button type="primary" onClick={() => open({})}>{t('web.new')}</Button>}
      </Space>
      <Table<DictItem> rowKey="diId" size="small" dataSource={items} onRow={rowProps} pagination={pager(items.length, page, setPage)}
        columns={[
          { title: t('web.dicCode'), dataIndex: 'dicCode' },
          ...LOCALES.map((loc) => ({ title: loc, key: loc, render: (_: unknown, d: DictItem) => d.names[loc] || '' })),
          { title: t('web.sort'), dataIndex: 'sort' },
          ...(isSuperAdmin() ? [{
            title: t('web.actions'), key: 'a', render: (_: unknown, d: DictItem) => (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => open(d)}>{t('web.edit')}</Button>
                <Popconfirm title={t('web.confirmDelete')} onConfirm={() => api.deleteDictionary(d.diId).then(reload)}><Button size="small" type="link" danger>{t('web.delete')}</Button></Popconfirm>
              </Space>
            ),
          }] : []),
        ]} />
      <Modal open={editing !== null} title={t(editing?.diId ? 'web.edit' : 'web.new')} onCancel={() => setEditing(null)} destroyOnHidden
        onOk={async () => { const v = await form.validateFields(); await api.saveDictionary(v); setEditing(null); setType(v.dicType); reload(); }}>
        <Form form={form} layout="vertical">
          <Form.Item name="dicType" label={t('web.dicType')} rules={[{ required: true, pattern: CODE, message: t('web.codeRule') }]}><Input disabled={!!editing?.diId} /></Form.Item>
          <Form.Item name="dicCode" label={t('web.dicCode')} rules={[{ required: true, pattern: CODE, message: t('web.codeRule') }]}><Input disabled={!!editing?.diId} /></Form.Item>
          {LOCALES.map((loc) => (
            <Form.Item key={loc} name={['names', loc]} label={loc} rules={loc === 'zh-cn' ? [{ required: true, whitespace: true, message: t('web.required') }] : []}><Input maxLength={128} /></Form.Item>
          ))}
          <Form.Item name="sort" label={t('web.sort')}><InputNumber min={0} /></Form.Item>
          <Form.Item name="public" label={t('web.public')} valuePropName="checked"><Switch /></Form.Item>
        </Form>
      </Modal>
    </>
  );
}

function PasswordRules({ tenantId }: { tenantId?: number }) {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [form] = Form.useForm();
  useEffect(() => { api.passwordStrategy(tenantId).then((s) => form.setFieldsValue(s)); }, [tenantId, form]);
  return (
    <Form form={form} layout="inline" onFinish={async (v) => { await api.savePasswordStrategy({ ...v, tenantId }); message.success(t('web.saved')); }}>
      <Form.Item name="minLength" label={t('web.minLength')} rules={[{ required: true }]}><InputNumber min={6} max={12} /></Form.Item>
      <Form.Item name="maxLength" label={t('web.maxLength')} dependencies={['minLength']}
        rules={[{ required: true }, ({ getFieldValue }) => ({ validator: (_, v) => (v >= getFieldValue('minLength') ? Promise.resolve() : Promise.reject(new Error(t('web.rangeRule')))) })]}>
        <InputNumber min={6} max={64} />
      </Form.Item>
      <Form.Item name="expireDays" label={t('web.expireDays')}><InputNumber min={0} max={3650} /></Form.Item>
      <Form.Item name="warnDays" label={t('web.warnDays')}><InputNumber min={0} max={90} /></Form.Item>
      <Button type="primary" htmlType="submit">{t('web.save')}</Button>
    </Form>
  );
}

function ServerFlags() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [rows, setRows] = useState<{ configKey: string; value: string; default: string }[]>([]);
  const reload = useCallback(() => api.serverConfig().then(setRows), []);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  return (
    <Table rowKey="configKey" size="small" dataSource={rows} pagination={false} onRow={rowProps}
      columns={[
        { title: t('web.configKey'), dataIndex: 'configKey' },
        {
          title: t('web.value'), key: 'v', render: (_, r) => (['true', 'false'].includes(r.default)
            ? <Switch checked={r.value === 'true'} onChange={(on) => api.saveServerConfig(r.configKey, on ? 'true' : 'false').then(() => { message.success(t('web.saved')); reload(); })} />
            : <Input.Search defaultValue={r.value} enterButton={t('web.save')} style={{ width: 240 }} onSearch={(v) => api.saveServerConfig(r.configKey, v).then(() => { message.success(t('web.saved')); reload(); })} />),
        },
        { title: t('web.default'), dataIndex: 'default' },
      ]} />
  );
}

function GreyRules({ tenantId }: { tenantId?: number }) {
  const t = useT('admin');
  const [rows, setRows] = useState<GreyRule[]>([]);
  const [form] = Form.useForm();
  const reload = useCallback(() => api.greyRules(tenantId).then(setRows), [tenantId]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  return (
    <>
      <Form form={form} layout="inline" style={{ marginBottom: 12 }} onFinish={async (v) => { await api.addGreyRule({ ...v, userId: v.userId || null, tenantId }); form.resetFields(); reload(); }}>
        <Form.Item name="header" rules={[{ required: true, pattern: /^[A-Za-z0-9-]{1,64}$/, message: t('web.headerRule') }]}><Input placeholder={t('web.header')} /></Form.Item>
        <Form.Item name="value" rules={[{ required: true, whitespace: true, max: 255, message: t('web.required') }]}><Input placeholder={t('web.value')} /></Form.Item>
        <Form.Item name="userId"><InputNumber placeholder="userId" min={1} /></Form.Item>
        <Button htmlType="submit" type="primary">{t('web.new')}</Button>
      </Form>
      <Table<GreyRule> rowKey="ruleId" size="small" dataSource={rows} pagination={false} onRow={rowProps}
        columns={[
          { title: t('web.header'), dataIndex: 'header' },
          { title: t('web.value'), dataIndex: 'value' },
          { title: 'userId', dataIndex: 'userId', render: (v: number | null) => v ?? '*' },
          { title: t('web.actions'), key: 'a', render: (_, r) => <Popconfirm title={t('web.confirmDelete')} onConfirm={() => api.deleteGreyRule(r.ruleId, tenantId).then(reload)}><Button size="small" type="link" danger>{t('web.delete')}</Button></Popconfirm> },
        ]} />
    </>
  );
}

function TableAudit() {
  const t = useT('admin');
  const [rows, setRows] = useState<AuditConfig[]>([]);
  const [form] = Form.useForm();
  const reload = useCallback(() => api.auditConfig().then(setRows), []);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  return (
    <>
      <Form form={form} layout="inline" style={{ marginBottom: 12 }} onFinish={async (v) => { await api.saveAuditConfig({ ...v, tableAlias: v.tableAlias || '', enabled: true }); form.resetFields(); reload(); }}>
        <Form.Item name="serverName" rules={[{ required: true, max: 64, message: t('web.required') }]}><Input placeholder="serverName" /></Form.Item>
        <Form.Item name="tableName" rules={[{ required: true, max: 128, message: t('web.required') }]}><Input placeholder="tableName" /></Form.Item>
        <Form.Item name="tableAlias" rules={[{ max: 128 }]}><Input placeholder="tableAlias" /></Form.Item>
        <Button htmlType="submit" type="primary">{t('web.new')}</Button>
      </Form>
      <Table<AuditConfig> rowKey="id" size="small" dataSource={rows} pagination={false} onRow={rowProps}
        columns={[
          { title: 'serverName', dataIndex: 'serverName' },
          { title: 'tableName', dataIndex: 'tableName' },
          { title: 'tableAlias', dataIndex: 'tableAlias' },
          { title: t('web.enabled'), key: 'e', render: (_, r) => <Switch checked={r.enabled} onChange={(on) => api.saveAuditConfig({ ...r, enabled: on }).then(reload)} /> },
        ]} />
    </>
  );
}

function LoginLog({ tenantId }: { tenantId?: number }) {
  const t = useT('admin');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: LoginLogRow[] }>({ total: 0, list: [] });
  useEffect(() => { api.loginLog({ tenantId, keyword, pageIndex: page, pageRows: PAGE_SIZE }).then(setData, () => undefined); }, [tenantId, keyword, page]);
  return (
    <>
      <Input.Search allowClear placeholder={t('web.search')} style={{ width: 260, marginBottom: 12 }} onSearch={(v) => { setKeyword(v); setPage(1); }} />
      <Table<LoginLogRow> rowKey="logId" size="small" dataSource={data.list} onRow={rowProps} pagination={pager(data.total, page, setPage)}
        columns={[
          { title: t('web.at'), dataIndex: 'at' },
          { title: t('web.account'), dataIndex: 'account' },
          { title: t('web.userFullName'), dataIndex: 'userFullName' },
          { title: 'IP', dataIndex: 'ip' },
          { title: t('web.failedCount'), dataIndex: 'failedCount' },
          { title: t('web.locked'), dataIndex: 'locked', render: (v: boolean) => (v ? <Tag color="red">{t('web.locked')}</Tag> : null) },
        ]} />
    </>
  );
}

export function Settings() {
  const t = useT('admin');
  const [tenantId, setTenantId] = useState<number | undefined>();
  const items = [
    { key: 'dict', label: t('web.dictionaries'), children: <Dictionaries /> },
    { key: 'pwd', label: t('web.passwordStrategy'), children: <PasswordRules tenantId={tenantId} /> },
    ...(isSuperAdmin() ? [{ key: 'config', label: t('web.serverConfig'), children: <ServerFlags /> }] : []),
    { key: 'grey', label: t('web.greyRules'), children: <GreyRules tenantId={tenantId} /> },
    { key: 'audit', label: t('web.tableAudit'), children: <TableAudit /> },
    { key: 'login', label: t('web.loginLog'), children: <LoginLog tenantId={tenantId} /> },
  ];
  return (
    <AdminOnly>
      <TenantPicker value={tenantId} onChange={setTenantId} />
      <Tabs items={items} destroyOnHidden />
    </AdminOnly>
  );
}
