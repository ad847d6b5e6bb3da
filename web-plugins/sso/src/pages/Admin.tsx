import { useCallback, useEffect, useState } from 'react';
import {
  App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tabs, Tag,
} from 'antd';
import { request, useT, type RequestError } from '@atrium/sdk';
import { PlusIcon } from '../icons';

/** The screen's texts: the `web.*` keys of the sso namespace (the host's sign-in pages use the same one). */
function useSsoT() {
  return useT('sso');
}

interface SchemaProp {
  type?: string;
  format?: string;
  default?: unknown;
  enum?: string[];
  title?: string;
  anyOf?: SchemaProp[];
  items?: SchemaProp;
}

interface ProviderKind {
  kind: string;
  label: string;
  modes: string[];
  schema: { properties: Record<string, SchemaProp>; required?: string[] };
}

interface ConfigRow {
  id: string;
  code: string;
  kind: string;
  name: string;
  enabled: boolean;
  sort: number;
  onUnknown: 'refuse' | 'create' | 'verify';
  redirectUri: string;
  settings: Record<string, unknown>;
  installed: boolean;
}

interface IdentityRow {
  id: string;
  provider: string;
  subject: string;
  userId: number;
  account?: string;
  userFullName?: string;
  displayName: string;
  createdOnSignIn: boolean;
}

function SettingField({ name, prop, required }: { name: string; prop: SchemaProp; required: boolean }) {
  const type = prop.type || prop.anyOf?.find((p) => p.type && p.type !== 'null')?.type;
  const label = prop.title || name;
  const rules = required ? [{ required: true, message: label }] : [];
  if (prop.format === 'password') {
    return <Form.Item name={['settings', name]} label={label} rules={rules}><Input.Password autoComplete="new-password" /></Form.Item>;
  }
  if (prop.enum) {
    return <Form.Item name={['settings', name]} label={label} rules={rules}><Select options={prop.enum.map((v) => ({ value: v, label: v }))} /></Form.Item>;
  }
  if (type === 'boolean') return <Form.Item name={['settings', name]} label={label} valuePropName="checked"><Switch /></Form.Item>;
  if (type === 'integer' || type === 'number') {
    return <Form.Item name={['settings', name]} label={label} rules={rules}><InputNumber style={{ width: '100%' }} /></Form.Item>;
  }
  if (type === 'array') return <Form.Item name={['settings', name]} label={label} rules={rules}><Select mode="tags" /></Form.Item>;
  return <Form.Item name={['settings', name]} label={label} rules={rules}><Input /></Form.Item>;
}

function ConfigDialog({ open, row, kinds, onClose }: { open: boolean; row?: ConfigRow; kinds: ProviderKind[]; onClose: (saved: boolean) => void }) {
  const t = useSsoT();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const kind = Form.useWatch('kind', form) as string | undefined;
  const schema = kinds.find((k) => k.kind === kind)?.schema;
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(row || { enabled: true, sort: 0, onUnknown: 'refuse', settings: {} });
  }, [open, row, form]);
  useEffect(() => {
    if (!schema || row) return;
    const defaults: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(schema.properties)) if (p.default !== undefined) defaults[k] = p.default;
    form.setFieldValue('settings', defaults);
  }, [schema, row, form]);
  const save = async () => {
    const values = await form.validateFields();
    try {
      await request('/api/third/admin/configs/save', { method: 'POST', data: values, silent: true });
      message.success(t('web.saved'));
      onClose(true);
    } catch (err) {
      message.error((err as RequestError).message);
    }
  };
  return (
    <Modal open={open} title={row ? t('web.editProvider') : t('web.addProvider')} onOk={save} onCancel={() => onClose(false)} width={640} destroyOnHidden>
      <Form form={form} layout="vertical">
        <Space style={{ width: '100%' }} styles={{ item: { flex: 1 } }}>
          <Form.Item name="kind" label={t('web.kind')} rules={[{ required: true }]}>
            <Select disabled={!!row} options={kinds.map((k) => ({ value: k.kind, label: k.label }))} />
          </Form.Item>
          <Form.Item name="code" label={t('web.codeField')} rules={[{ required: true, pattern: /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/ }]}>
            <Input disabled={!!row} />
          </Form.Item>
        </Space>
        <Form.Item name="name" label={t('web.name')} rules={[{ required: true, whitespace: true }]}><Input maxLength={64} /></Form.Item>
        <Space>
          <Form.Item name="enabled" label={t('web.enabled')} valuePropName="checked"><Switch /></Form.Item>
          <Form.Item name="sort" label={t('web.sort')}><InputNumber min={0} max={9999} /></Form.Item>
          <Form.Item name="onUnknown" label={t('web.onUnknown')} style={{ minWidth: 220 }}>
            <Select options={(['refuse', 'create', 'verify'] as const).map((v) => ({ value: v, label: t(`web.unknown.${v}`) }))} />
          </Form.Item>
        </Space>
        <Form.Item name="redirectUri" label={t('web.redirectUri')} tooltip={t('web.redirectUriTip')}><Input placeholder="https://" /></Form.Item>
        {schema && Object.entries(schema.properties).map(([name, prop]) => (
          <SettingField key={name} name={name} prop={prop} required={!!schema.required?.includes(name)} />
        ))}
      </Form>
    </Modal>
  );
}

function Identities({ configs }: { configs: ConfigRow[] }) {
  const t = useSsoT();
  const { message } = App.useApp();
  const [rows, setRows] = useState<IdentityRow[]>([]);
  const [form] = Form.useForm();
  const load = useCallback(() => {
    request<IdentityRow[]>('/api/third/admin/identities', { silent: true }).then(setRows).catch(() => setRows([]));
  }, []);
  useEffect(load, [load]);
  const add = async (values: { provider: string; subject: string; userId: number }) => {
    try {
      await request('/api/third/admin/identities/link', { method: 'POST', data: values, silent: true });
      form.resetFields();
      load();
    } catch (err) {
      message.error((err as RequestError).message);
    }
  };
  const remove = async (id: string) => {
    await request('/api/third/admin/identities/unlink', { method: 'POST', data: { id: Number(id) } });
    load();
  };
  return (
    <>
      <Form form={form} layout="inline" onFinish={add} style={{ marginBottom: 16 }}>
        <Form.Item name="provider" rules={[{ required: true }]}><Select style={{ width: 180 }} placeholder={t('web.provider')} options={configs.map((c) => ({ value: c.code, label: c.name }))} /></Form.Item>
        <Form.Item name="subject" rules={[{ required: true, whitespace: true }]}><Input placeholder={t('web.subject')} /></Form.Item>
        <Form.Item name="userId" rules={[{ required: true }]}><InputNumber placeholder={t('web.userId')} style={{ width: 140 }} /></Form.Item>
        <Button type="primary" htmlType="submit">{t('web.link')}</Button>
      </Form>
      <Table<IdentityRow>
        rowKey="id"
        size="small"
        dataSource={rows}
        columns={[
          { title: t('web.provider'), dataIndex: 'provider' },
          { title: t('web.subject'), dataIndex: 'subject' },
          { title: t('web.user'), render: (_, r) => `${r.userFullName || ''} (${r.account || r.userId})` },
          { title: t('web.created'), render: (_, r) => (r.createdOnSignIn ? <Tag color="blue">SSO</Tag> : null) },
          { title: '', render: (_, r) => <Popconfirm title={t('web.unlinkConfirm')} onConfirm={() => remove(r.id)}><Button type="link" danger>{t('web.unlink')}</Button></Popconfirm> },
        ]}
      />
    </>
  );
}

/** The tenant administrator's screen: sign-in providers and linked identities. */
export function SsoAdminPage() {
  const t = useSsoT();
  const [kinds, setKinds] = useState<ProviderKind[]>([]);
  const [configs, setConfigs] = useState<ConfigRow[]>([]);
  const [editing, setEditing] = useState<{ open: boolean; row?: ConfigRow }>({ open: false });
  const load = useCallback(() => {
    request<ProviderKind[]>('/api/third/admin/providers', { silent: true }).then(setKinds).catch(() => setKinds([]));
    request<ConfigRow[]>('/api/third/admin/configs', { silent: true }).then(setConfigs).catch(() => setConfigs([]));
  }, []);
  useEffect(load, [load]);
  const remove = async (code: string) => {
    await request('/api/third/admin/configs/delete', { method: 'POST', data: { code } });
    load();
  };
  return (
    <Card data-testid="sso-admin">
      <Tabs
        items={[
          {
            key: 'providers',
            label: t('web.providers'),
            children: (
              <>
                <Button type="primary" icon={<PlusIcon />} onClick={() => setEditing({ open: true })} style={{ marginBottom: 16 }}>{t('web.addProvider')}</Button>
                <Table<ConfigRow>
                  rowKey="code"
                  dataSource={configs}
                  columns={[
                    { title: t('web.name'), dataIndex: 'name' },
                    { title: t('web.codeField'), dataIndex: 'code' },
                    { title: t('web.kind'), dataIndex: 'kind', render: (k: string, r) => (r.installed ? k : <Tag color="red">{k}</Tag>) },
                    { title: t('web.enabled'), dataIndex: 'enabled', render: (v: boolean) => (v ? <Tag color="green">ON</Tag> : <Tag>OFF</Tag>) },
                    { title: t('web.onUnknown'), dataIndex: 'onUnknown', render: (v: string) => t(`web.unknown.${v}`) },
                    {
                      title: '',
                      render: (_, r) => (
                        <Space>
                          <Button type="link" onClick={() => setEditing({ open: true, row: r })}>{t('web.edit')}</Button>
                          <Popconfirm title={t('web.deleteConfirm')} onConfirm={() => remove(r.code)}><Button type="link" danger>{t('web.delete')}</Button></Popconfirm>
                        </Space>
                      ),
                    },
                  ]}
                />
              </>
            ),
          },
          { key: 'identities', label: t('web.identities'), children: <Identities configs={configs} /> },
        ]}
      />
      <ConfigDialog open={editing.open} row={editing.row} kinds={kinds} onClose={(saved) => { setEditing({ open: false }); if (saved) load(); }} />
    </Card>
  );
}
