import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { App as AntApp, Button, DatePicker, Drawer, Form, Grid, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useT } from '@atrium/sdk';
import { api, type Country, type Profile, type System, type Tenant, type TenantSystem } from '../api';
import { AdminOnly, EMAIL, PHONE, pager, rowProps } from '../common';

type Row = Tenant & Partial<Profile>;
type FormValues = Omit<Profile, 'effectiveDate' | 'expirationDate'> & { tenantName: string; domain: string; systems?: string[]; effectiveDate?: Dayjs; expirationDate?: Dayjs };

function TenantSystems({ tenant, onClose }: { tenant: Row; onClose: () => void }) {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [systems, setSystems] = useState<System[]>([]);
  const [offered, setOffered] = useState<TenantSystem[]>([]);
  const [form] = Form.useForm();
  const reload = useCallback(() => api.tenantSystems(tenant.tenantId).then(setOffered), [tenant.tenantId]);
  useEffect(() => { api.systems().then(setSystems); reload(); }, [reload]);
  const byCode = new Map(offered.map((o) => [o.systemCode, o]));
  const offer = async (code: string, on: boolean) => {
    await api.offerSystem({ tenantId: tenant.tenantId, systemCode: code, offered: on });
    message.success(t('web.saved'));
    reload();
  };
  return (
    <Drawer open width={640} title={`${t('web.systems')}: ${tenant.tenantName}`} onClose={onClose}>
      <Table rowKey="systemCode" size="small" dataSource={systems} pagination={false} onRow={rowProps}
        expandable={{
          rowExpandable: (s) => byCode.has(s.systemCode),
          expandedRowRender: (s) => (
            <Form form={form} layout="inline" initialValues={byCode.get(s.systemCode)}
              onFinish={async (v) => { await api.offerSystem({ ...v, tenantId: tenant.tenantId, systemCode: s.systemCode, offered: true }); message.success(t('web.saved')); reload(); }}>
              <Form.Item name="systemTitle" label={t('web.systemTitle')}><Input maxLength={128} /></Form.Item>
              <Form.Item name="themeColor" label={t('web.themeColor')} rules={[{ pattern: /^#[0-9A-Fa-f]{6}$/, message: '#RRGGBB' }]}><Input style={{ width: 100 }} /></Form.Item>
              <Form.Item name="systemLogo" label={t('web.systemLogo')}><Input maxLength={512} /></Form.Item>
              <Form.Item name="iconUrl" label={t('web.iconUrl')}><Input maxLength={512} /></Form.Item>
              <Button htmlType="submit" type="primary">{t('web.save')}</Button>
            </Form>
          ),
        }}
        columns={[
          { title: t('web.systemCode'), dataIndex: 'systemCode' },
          { title: t('web.systemName'), dataIndex: 'systemName' },
          {
            title: t('web.offer'), key: 'offer', render: (_, s) => (
              <Switch aria-label={s.systemName} data-testid={`offer-${s.systemCode}`} checked={byCode.has(s.systemCode)} disabled={s.systemCode === 'iotAutho'}
                onChange={(on) => offer(s.systemCode, on)} />
            ),
          },
        ]} />
    </Drawer>
  );
}

export function Tenants() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [rows, setRows] = useState<Row[]>([]);
  const [countries, setCountries] = useState<Country[]>([]);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [systemsOf, setSystemsOf] = useState<Row | null>(null);
  const [allSystems, setAllSystems] = useState<System[]>([]);
  const [form] = Form.useForm<FormValues>();

  const reload = useCallback(async () => {
    const [tenants, profiles] = await Promise.all([api.tenants(), api.profiles()]);
    const byId = new Map(profiles.map((p) => [p.tenantId, p]));
    setRows(tenants.map((x) => ({ ...byId.get(x.tenantId), ...x })));
  }, []);
  useEffect(() => {
    reload().catch(() => undefined);
    api.countries().then(setCountries, () => undefined);
    api.systems().then(setAllSystems, () => undefined);
  }, [reload]);

  const shown = useMemo(() => rows.filter((r) => !keyword || `${r.tenantName} ${r.tenantId} ${r.companyName || ''}`.toLowerCase().includes(keyword.toLowerCase())), [rows, keyword]);

  const open = (row: Row | 'new') => {
    form.resetFields();
    if (row !== 'new') {
      form.setFieldsValue({ ...row, effectiveDate: row.effectiveDate ? dayjs(row.effectiveDate) : undefined, expirationDate: row.expirationDate ? dayjs(row.expirationDate) : undefined } as FormValues);
    }
    setEditing(row);
  };
  const save = async () => {
    const v = await form.validateFields();
    const { tenantName, domain, systems, ...rest } = v;
    const profile = { ...rest, effectiveDate: v.effectiveDate?.format('YYYY-MM-DD'), expirationDate: v.expirationDate?.format('YYYY-MM-DD') };
    if (editing === 'new') { // tenant, profile and systems in one transaction: all written or none
      await api.createTenant({ ...profile, tenantName, domain: domain || '', systems: (systems || []).map((systemCode) => ({ systemCode })) });
    } else {
      await api.saveProfile(profile);
    }
    message.success(t('web.saved'));
    setEditing(null);
    reload();
  };
  const lang = t.locale;
  const stateTag = (s?: string) => s ? <Tag color={s === 'approved' ? 'green' : s === 'rejected' ? 'red' : 'gold'}>{t(`web.${s}`)}</Tag> : null;
  const countryName = (c: string) => { const x = countries.find((k) => k.code === c); return x ? `${x.names[lang] || x.names['en-us']} ${c}` : c; };
  const narrow = !Grid.useBreakpoint().md;

  /** The tenant's name, id and state, then each detail of the profile only when some tenant has it (so no
   * column stands empty), and the actions, always in view. */
  const has = (key: keyof Row) => rows.some((r) => r[key] !== undefined && r[key] !== null && r[key] !== '');
  const nowrap = { style: { whiteSpace: 'nowrap' as const } };
  const detail = (title: string, dataIndex: keyof Row, render?: (v: string) => ReactNode): TableColumnsType<Row> => (
    has(dataIndex) ? [{ title, dataIndex, render, onCell: () => nowrap }] : []
  );
  const name: TableColumnsType<Row>[number] = { title: t('web.tenantName'), dataIndex: 'tenantName', fixed: narrow ? undefined : 'left', onCell: () => nowrap };
  const details: TableColumnsType<Row> = [
    { title: t('web.tenantId'), dataIndex: 'tenantId', onCell: () => nowrap },
    ...detail(t('web.companyName'), 'companyName'),
    ...detail(t('web.approvalState'), 'approvalState', stateTag),
    { title: t('web.state'), dataIndex: 'enabled', render: (on: boolean) => <Tag color={on ? 'green' : 'default'}>{t(on ? 'web.enabled' : 'web.disabled')}</Tag> },
    ...detail(t('web.effectiveDate'), 'effectiveDate'),
    ...detail(t('web.expirationDate'), 'expirationDate'),
    ...detail(t('web.contact'), 'contact'),
    ...detail(t('web.contactPhone'), 'contactPhone'),
    ...detail(t('web.contactEmail'), 'contactEmail'),
    ...detail(t('web.tenantType'), 'tenantType'),
    ...detail(t('web.enterpriseCode'), 'enterpriseCode'),
    ...detail(t('web.country'), 'country', countryName),
    ...detail(t('web.size'), 'size'),
  ];
  const actions: TableColumnsType<Row>[number] = {
    title: t('web.actions'), key: 'a', fixed: narrow ? undefined : 'right', width: narrow ? 132 : undefined,
    // clear of the page's floating buttons at the right edge
    onCell: () => ({ style: narrow ? {} : { paddingRight: 40 } }), onHeaderCell: () => ({ style: narrow ? {} : { paddingRight: 40 } }),
    render: (_, r) => (
      <Space size={narrow ? [0, 0] : 4} wrap={narrow} style={narrow ? undefined : { whiteSpace: 'nowrap' }} data-testid={`tenant-actions-${r.tenantId}`}>
        <Button size="small" type="link" onClick={() => open(r)}>{t('web.edit')}</Button>
        {r.approvalState && r.approvalState !== 'approved' && (
          <Popconfirm title={t('web.confirm')} onConfirm={() => api.approval(r.tenantId, 'approved').then(reload, () => undefined)}><Button size="small" type="link">{t('web.approve')}</Button></Popconfirm>
        )}
        {r.tenantId !== -999 && (
          <Popconfirm title={t('web.confirm')} onConfirm={() => api.tenantState(r.tenantId, !r.enabled).then(reload, () => undefined)}>
            <Button size="small" type="link" danger={r.enabled}>{t(r.enabled ? 'web.suspend' : 'web.resume')}</Button>
          </Popconfirm>
        )}
        <Button size="small" type="link" onClick={() => setSystemsOf(r)} data-testid={`tenant-systems-${r.tenantId}`}>{t('web.systems')}</Button>
        {r.tenantId !== -999 && (
          <Popconfirm title={t('web.confirmDeleteTenant')} onConfirm={() => api.deleteTenant(r.tenantId).then(() => { message.success(t('web.deleted')); return reload(); }, () => undefined)}>
            <Button size="small" type="link" danger data-testid={`tenant-delete-${r.tenantId}`}>{t('web.delete')}</Button>
          </Popconfirm>
        )}
      </Space>
    ),
  };
  // on a phone the actions come right after the name, in view without scrolling and away from the floating
  // buttons; on a wide screen they stay on the right while the details scroll sideways under them
  const columns = narrow ? [name, actions, ...details] : [name, ...details, actions];

  return (
    <AdminOnly superOnly>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 260 }} data-testid="tenant-search" />
        <Button type="primary" onClick={() => open('new')} data-testid="tenant-new">{t('web.new')}</Button>
      </Space>
      <Table<Row> rowKey="tenantId" size="small" dataSource={shown} onRow={rowProps} pagination={pager(shown.length, page, setPage)}
        scroll={{ x: 'max-content' }} data-testid="tenant-table" columns={columns} />
      <Modal open={editing !== null} title={t(editing === 'new' ? 'web.new' : 'web.edit')} onOk={save} onCancel={() => setEditing(null)} width={720} destroyOnHidden>
        <Form form={form} layout="vertical" style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          <Form.Item name="tenantId" label={t('web.tenantId')} rules={[{ required: true, message: t('web.required') }]}><InputNumber min={1} style={{ width: '100%' }} disabled={editing !== 'new'} /></Form.Item>
          <Form.Item name="tenantName" label={t('web.tenantName')} rules={[{ required: true, whitespace: true, max: 16, message: t('web.nameLength') }]}><Input disabled={editing !== 'new'} /></Form.Item>
          <Form.Item name="companyName" label={t('web.companyName')} rules={[{ required: true, whitespace: true, min: 1, max: 16, message: t('web.nameLength') }]}><Input maxLength={16} showCount /></Form.Item>
          <Form.Item name="domain" label="Domain"><Input maxLength={128} disabled={editing !== 'new'} /></Form.Item>
          <Form.Item name="contact" label={t('web.contact')}><Input maxLength={64} /></Form.Item>
          <Form.Item name="contactPhone" label={t('web.contactPhone')} rules={[{ pattern: PHONE, message: t('phone_invalid') }]}><Input /></Form.Item>
          <Form.Item name="contactEmail" label={t('web.contactEmail')} rules={[{ pattern: EMAIL, message: t('email_invalid') }]}><Input /></Form.Item>
          <Form.Item name="tenantType" label={t('web.tenantType')}><Input maxLength={64} /></Form.Item>
          <Form.Item name="enterpriseCode" label={t('web.enterpriseCode')}><Input maxLength={64} /></Form.Item>
          <Form.Item name="country" label={t('web.country')}>
            <Select showSearch allowClear optionFilterProp="label" options={countries.map((c) => ({ value: c.code, label: `${c.names[lang] || c.names['en-us']} ${c.code}` }))} />
          </Form.Item>
          <Form.Item name="state" label={t('web.state')}><Input maxLength={64} /></Form.Item>
          {editing === 'new' && (
            <Form.Item name="systems" label={t('web.systemsOffered')} style={{ gridColumn: '1 / span 2' }}>
              <Select mode="multiple" data-testid="tenant-new-systems" optionFilterProp="label"
                options={allSystems.filter((x) => x.systemCode !== 'iotAutho').map((x) => ({ value: x.systemCode, label: `${x.systemName} (${x.systemCode})` }))} />
            </Form.Item>
          )}
          <Form.Item name="size" label={t('web.size')}><InputNumber min={0} style={{ width: '100%' }} /></Form.Item>
          <Form.Item name="effectiveDate" label={t('web.effectiveDate')} rules={[{ required: true, message: t('effective_required') }]}><DatePicker style={{ width: '100%' }} /></Form.Item>
          <Form.Item name="expirationDate" label={t('web.expirationDate')} dependencies={['effectiveDate']}
            rules={[{ required: true, message: t('expiration_required') }, ({ getFieldValue }) => ({
              validator: (_, v?: Dayjs) => (!v || !getFieldValue('effectiveDate') || v.isAfter(getFieldValue('effectiveDate'), 'day') ? Promise.resolve() : Promise.reject(new Error(t('expiration_after')))),
            })]}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
      {systemsOf && <TenantSystems tenant={systemsOf} onClose={() => setSystemsOf(null)} />}
    </AdminOnly>
  );
}
