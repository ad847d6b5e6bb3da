import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Segmented, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { LANGUAGE_NAMES, useT, type Locale } from '@atrium/sdk';
import { api, isSuperAdmin, type AuditConfig, type DictItem, type FailureRow, type GreyRule, type LdapServer, type LockoutRow, type LoginLogRow, type LoginType, type Page, type SigninConfig } from '../api';
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
        <Select showSearch style={{ width: 260 }} value={type || undefined} placeholder={t('web.dicType')} aria-label={t('web.dicType')} onChange={(v) => { setType(v); setPage(1); }} options={types.map((x) => ({ value: x, label: x }))} />
        {isSuperAdmin() && <Button type="primary" onClick={() => open({})}>{t('web.new')}</Button>}
      </Space>
      <Table<DictItem> rowKey="diId" size="small" dataSource={items} onRow={rowProps} pagination={pager(items.length, page, setPage)}
        columns={[
          { title: t('web.dicCode'), dataIndex: 'dicCode' },
          ...LOCALES.map((loc) => ({ title: LANGUAGE_NAMES[loc as Locale], key: loc, render: (_: unknown, d: DictItem) => d.names[loc] || '' })),
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
            <Form.Item key={loc} name={['names', loc]} label={LANGUAGE_NAMES[loc as Locale]} rules={loc === 'zh-cn' ? [{ required: true, whitespace: true, message: t('web.required') }] : []}><Input maxLength={128} /></Form.Item>
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
      <Form.Item name="allowSymbols" label={t('web.allowSymbols')} valuePropName="checked"><Switch aria-label={t('web.allowSymbols')} /></Form.Item>
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
        {
          title: t('web.configKey'), dataIndex: 'configKey',
          render: (key: string) => (
            <Space direction="vertical" size={0}>
              <span>{t(`web.config_${key}`, { defaultValue: key })}</span>
              <Typography.Text code type="secondary">{key}</Typography.Text>
            </Space>
          ),
        },
        {
          title: t('web.value'), key: 'v', render: (_, r) => (['true', 'false'].includes(r.default)
            ? <Switch aria-label={r.configKey} checked={r.value === 'true'} onChange={(on) => api.saveServerConfig(r.configKey, on ? 'true' : 'false').then(() => { message.success(t('web.saved')); reload(); })} />
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
        <Form.Item name="userId"><InputNumber placeholder={t('web.userId')} aria-label={t('web.userId')} min={1} /></Form.Item>
        <Button htmlType="submit" type="primary">{t('web.new')}</Button>
      </Form>
      <Table<GreyRule> rowKey="ruleId" size="small" dataSource={rows} pagination={false} onRow={rowProps}
        columns={[
          { title: t('web.header'), dataIndex: 'header' },
          { title: t('web.value'), dataIndex: 'value' },
          { title: t('web.userId'), dataIndex: 'userId', render: (v: number | null) => v ?? t('web.everyone') },
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
        <Form.Item name="serverName" rules={[{ required: true, max: 64, message: t('web.required') }]}><Input placeholder={t('web.serverName')} /></Form.Item>
        <Form.Item name="tableName" rules={[{ required: true, max: 128, message: t('web.required') }]}><Input placeholder={t('web.tableName')} /></Form.Item>
        <Form.Item name="tableAlias" rules={[{ max: 128 }]}><Input placeholder={t('web.tableAlias')} /></Form.Item>
        <Button htmlType="submit" type="primary">{t('web.new')}</Button>
      </Form>
      <Table<AuditConfig> rowKey="id" size="small" dataSource={rows} pagination={false} onRow={rowProps}
        columns={[
          { title: t('web.serverName'), dataIndex: 'serverName', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('web.tableName'), dataIndex: 'tableName', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          { title: t('web.tableAlias'), dataIndex: 'tableAlias' },
          { title: t('web.enabled'), key: 'e', render: (_, r) => <Switch aria-label={r.tableAlias || r.tableName} checked={r.enabled} onChange={(on) => api.saveAuditConfig({ ...r, enabled: on }).then(reload)} /> },
        ]} />
    </>
  );
}

type LogView = 'signins' | 'failures' | 'lockouts';

function LoginLog({ tenantId }: { tenantId?: number }) {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [view, setView] = useState<LogView>('signins');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [tick, setTick] = useState(0);
  const [signins, setSignins] = useState<Page<LoginLogRow>>();
  const [failures, setFailures] = useState<Page<FailureRow>>();
  const [lockouts, setLockouts] = useState<Page<LockoutRow>>();
  useEffect(() => {
    const params = { tenantId, keyword, pageIndex: page, pageRows: PAGE_SIZE };
    if (view === 'signins') api.loginLog(params).then(setSignins, () => undefined);
    if (view === 'failures') api.failures(params).then(setFailures, () => undefined);
    if (view === 'lockouts') api.lockouts(params).then(setLockouts, () => undefined);
  }, [tenantId, keyword, page, view, tick]);
  const locked = (v: boolean) => (v ? <Tag color="red">{t('web.locked')}</Tag> : null);
  const table = () => {
    if (view === 'failures') {
      return (
        <Table<FailureRow> rowKey="failureId" size="small" dataSource={failures?.list} onRow={rowProps} pagination={pager(failures?.total || 0, page, setPage)} data-testid="failure-table"
          columns={[
            { title: t('web.at'), dataIndex: 'at' },
            { title: t('web.account'), dataIndex: 'account' },
            { title: t('web.signinMode'), dataIndex: 'mode', render: (m: string) => t(`web.mode_${m}`, { defaultValue: m }) },
            { title: t('web.reason'), dataIndex: 'reason', render: (r: string) => t(`web.reason_${r}`, { defaultValue: r }) },
            { title: 'IP', dataIndex: 'ip' },
            { title: t('web.lockedUntil'), dataIndex: 'lockedUntil', render: (v: string) => (v ? <Tag color="red">{v}</Tag> : null) },
          ]} />
      );
    }
    if (view === 'lockouts') {
      return (
        <Table<LockoutRow> rowKey="userId" size="small" dataSource={lockouts?.list} onRow={rowProps} pagination={pager(lockouts?.total || 0, page, setPage)} data-testid="lockout-table"
          columns={[
            { title: t('web.account'), dataIndex: 'account' },
            { title: t('web.userFullName'), dataIndex: 'userFullName' },
            { title: t('web.failedCount'), dataIndex: 'failedCount' },
            { title: t('web.lastFailedAt'), dataIndex: 'lastFailedAt' },
            { title: t('web.locked'), dataIndex: 'locked', render: locked },
            { title: t('web.lockedUntil'), dataIndex: 'lockedUntil' },
            {
              title: t('web.actions'), key: 'a', render: (_, r) => (
                <Popconfirm title={t('web.confirmUnlock')} onConfirm={() => api.unlock(r.userId, tenantId).then(() => { message.success(t('web.saved')); setTick((n) => n + 1); }, () => undefined)}>
                  <Button size="small" type="link" data-testid={`unlock-${r.account}`}>{t('web.unlock')}</Button>
                </Popconfirm>
              ),
            },
          ]} />
      );
    }
    return (
      <Table<LoginLogRow> rowKey="logId" size="small" dataSource={signins?.list} onRow={rowProps} pagination={pager(signins?.total || 0, page, setPage)}
        columns={[
          { title: t('web.at'), dataIndex: 'at' },
          { title: t('web.account'), dataIndex: 'account' },
          { title: t('web.userFullName'), dataIndex: 'userFullName' },
          { title: 'IP', dataIndex: 'ip' },
          { title: t('web.failedCount'), dataIndex: 'failedCount' },
          { title: t('web.locked'), dataIndex: 'locked', render: locked },
        ]} />
    );
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Segmented<LogView> value={view} data-testid="login-log-view" onChange={(v) => { setView(v); setPage(1); }}
          options={[{ value: 'signins', label: t('web.signins') }, { value: 'failures', label: t('web.failures') }, { value: 'lockouts', label: t('web.lockouts') }]} />
        <Input.Search allowClear placeholder={t('web.search')} style={{ width: 260 }} data-testid="login-log-search" onSearch={(v) => { setKeyword(v); setPage(1); }} />
      </Space>
      {table()}
    </>
  );
}

const LDAP_EMPTY: LdapServer = { domain: '', serverUrl: 'ldap://', bindDn: '', searchBase: '', userFilter: '(uid={account})', startTls: false, timeout: 5, enabled: true };

/** The platform's own sign-in modes a tenant can switch off (one of them stays on). */
const OWN_MODES = [
  { key: 'passwordEnabled', label: 'web.mode_account', testId: 'signin-password' },
  { key: 'phoneCodeEnabled', label: 'web.mode_phone', testId: 'signin-phone' },
  { key: 'emailCodeEnabled', label: 'web.mode_email', testId: 'signin-email' },
] as const;

function SigninModes({ tenantId }: { tenantId?: number }) {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [modes, setModes] = useState<LoginType[]>([]);
  const [config, setConfig] = useState<SigninConfig>();
  const [servers, setServers] = useState<LdapServer[]>([]);
  const [editing, setEditing] = useState<LdapServer | null>(null);
  const [form] = Form.useForm<LdapServer>();
  const reload = useCallback(() => Promise.all([
    api.signinModes(tenantId).then((m) => setModes(m.loginTypes)),
    api.signinConfig(tenantId).then(setConfig),
    api.ldapList(tenantId).then(setServers),
  ]), [tenantId]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  const toggle = async (change: Partial<SigninConfig>) => {
    const next = { ...config, ...change };
    if (!OWN_MODES.some((m) => next[m.key])) {
      message.error(t('web.oneModeRequired'));
      return;
    }
    try {
      await api.saveSigninConfig(change, tenantId);
    } catch {
      return; /* the request client showed the server's message */
    }
    message.success(t('web.saved'));
    await reload();
  };
  const open = (server: LdapServer) => { form.resetFields(); form.setFieldsValue({ ...server, bindPassword: '' }); setEditing(server); };
  const modeName = (m: LoginType) => {
    const label = t(`web.mode_${m.type}`, { defaultValue: m.name || m.type });
    return m.domains ? `${label}: ${m.domains.join(', ')}` : label;
  };
  return (
    <>
      <Card size="small" title={t('web.offeredModes')} style={{ marginBottom: 12 }}>
        <Space wrap data-testid="offered-modes">{modes.map((m) => <Tag key={`${m.type}-${String(m.name || '')}`} color="blue">{modeName(m)}</Tag>)}</Space>
      </Card>
      {config && (
        <Card size="small" title={t('web.signinOptions')} style={{ marginBottom: 12 }}>
          <Space size="large" wrap>
            {OWN_MODES.map((m) => (
              <span key={m.key}>{t(m.label)} <Switch aria-label={t(m.label)} data-testid={m.testId} checked={config[m.key]} onChange={(on) => toggle({ [m.key]: on })} /></span>
            ))}
            <span>{t('web.mode_qrcode')} <Switch aria-label={t('web.mode_qrcode')} data-testid="signin-qrcode" checked={config.qrcodeEnabled} onChange={(on) => toggle({ qrcodeEnabled: on })} /></span>
            <span>{t('web.allowRegister')} <Switch aria-label={t('web.allowRegister')} data-testid="signin-register" checked={config.allowRegister} onChange={(on) => toggle({ allowRegister: on })} /></span>
            <span>{t('web.registerApproval')} <Switch aria-label={t('web.registerApproval')} checked={config.registerApproval} disabled={!config.allowRegister} onChange={(on) => toggle({ registerApproval: on })} /></span>
          </Space>
        </Card>
      )}
      <Card size="small" title={t('web.ldapServers')} extra={<Button size="small" type="primary" data-testid="ldap-new" onClick={() => open(LDAP_EMPTY)}>{t('web.new')}</Button>}>
        <Table<LdapServer> rowKey={(r) => r.id || r.domain} size="small" dataSource={servers} onRow={rowProps} pagination={false} data-testid="ldap-table"
          columns={[
            { title: t('web.ldapDomain'), dataIndex: 'domain' },
            { title: t('web.ldapUrl'), dataIndex: 'serverUrl' },
            { title: t('web.ldapBase'), dataIndex: 'searchBase' },
            { title: t('web.enabled'), dataIndex: 'enabled', render: (on: boolean) => <Tag color={on ? 'green' : 'default'}>{t(on ? 'web.yes' : 'web.no')}</Tag> },
            {
              title: t('web.actions'), key: 'a', render: (_, r) => (
                <Space size={0}>
                  <Button size="small" type="link" onClick={() => open(r)}>{t('web.edit')}</Button>
                  <Button size="small" type="link" onClick={() => r.id && api.ldapTest(r.id, tenantId).then(() => message.success(t('web.ldapReachable')), () => undefined)}>{t('web.ldapTest')}</Button>
                  <Popconfirm title={t('web.confirmDelete')} onConfirm={() => r.id && api.ldapDelete(r.id, tenantId).then(() => { message.success(t('web.deleted')); return reload(); }, () => undefined)}>
                    <Button size="small" type="link" danger data-testid={`ldap-delete-${r.domain}`}>{t('web.delete')}</Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]} />
      </Card>
      <Modal open={editing !== null} title={t(editing?.id ? 'web.edit' : 'web.new')} onCancel={() => setEditing(null)} destroyOnHidden width={640}
        onOk={async () => {
          const v = await form.validateFields();
          await api.ldapSave({ ...v, id: editing?.id, bindPassword: v.bindPassword || undefined }, tenantId);
          setEditing(null); message.success(t('web.saved')); await reload();
        }}>
        <Form form={form} layout="vertical" style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          <Form.Item name="domain" label={t('web.ldapDomain')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input data-testid="ldap-domain" /></Form.Item>
          <Form.Item name="serverUrl" label={t('web.ldapUrl')} rules={[{ required: true, pattern: /^ldaps?:\/\/.+/i, message: t('web.ldapUrlRule') }]}><Input data-testid="ldap-url" /></Form.Item>
          <Form.Item name="bindDn" label={t('web.ldapBindDn')}><Input maxLength={512} /></Form.Item>
          <Form.Item name="bindPassword" label={t('web.ldapBindPassword')} extra={editing?.bindPasswordSet ? t('web.ldapPasswordKept') : undefined}><Input.Password maxLength={256} autoComplete="new-password" /></Form.Item>
          <Form.Item name="searchBase" label={t('web.ldapBase')} rules={[{ required: true, whitespace: true, max: 512, message: t('web.required') }]}><Input data-testid="ldap-base" /></Form.Item>
          <Form.Item name="userFilter" label={t('web.ldapFilter')} rules={[{ required: true, validator: (_, v?: string) => (v && v.includes('{account}') && v.trim().startsWith('(') && v.trim().endsWith(')') ? Promise.resolve() : Promise.reject(new Error(t('web.ldapFilterRule')))) }]}><Input /></Form.Item>
          <Form.Item name="timeout" label={t('web.ldapTimeout')}><InputNumber min={1} max={30} /></Form.Item>
          <Form.Item name="startTls" label="StartTLS" valuePropName="checked"><Switch /></Form.Item>
          <Form.Item name="enabled" label={t('web.enabled')} valuePropName="checked"><Switch /></Form.Item>
        </Form>
      </Modal>
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
    { key: 'signin', label: t('web.signinConfig'), children: <SigninModes tenantId={tenantId} /> },
  ];
  return (
    <AdminOnly>
      <TenantPicker value={tenantId} onChange={setTenantId} />
      <Tabs items={items} destroyOnHidden />
    </AdminOnly>
  );
}
