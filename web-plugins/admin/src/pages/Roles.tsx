import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Table, Tree } from 'antd';
import { useT } from '@atrium/sdk';
import { api, type Menu, type Resource, type Role, type System } from '../api';
import { AdminOnly, TenantPicker, pager, rowProps } from '../common';
import { buildTree } from './tree';

export function Roles() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [roles, setRoles] = useState<Role[]>([]);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<Role | null>(null);
  const [systems, setSystems] = useState<System[]>([]);
  const [systemCode, setSystemCode] = useState('iotAutho');
  const [menus, setMenus] = useState<Menu[]>([]);
  const [resources, setResources] = useState<Resource[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const reload = useCallback(() => api.roles(tenantId).then(setRoles), [tenantId]);
  useEffect(() => { reload().catch(() => undefined); setSelected(null); }, [reload]);
  useEffect(() => { api.systems().then(setSystems, () => setSystems([{ systemCode: 'iotAutho', systemName: 'iotAutho' } as System])); }, []);
  useEffect(() => {
    api.menus(systemCode).then(setMenus);
    api.resources(systemCode).then(setResources);
  }, [systemCode]);
  useEffect(() => {
    if (!selected) return;
    api.roleResources(selected.roleId, tenantId).then((rs) => setChecked([...selected.menuIds.map((m) => `m:${m}`), ...rs.map((r) => `r:${r}`)]));
  }, [selected, tenantId]);

  const tree = useMemo(() => buildTree(menus, t.locale, resources), [menus, resources, t.locale]);
  const shown = roles.filter((r) => !keyword || `${r.roleCode} ${r.roleName}`.toLowerCase().includes(keyword.toLowerCase()));

  const saveGrants = async () => {
    if (!selected) return;
    const menuIds = checked.filter((k) => k.startsWith('m:')).map((k) => Number(k.slice(2)));
    const otherSystems = selected.menuIds.map(Number).filter((id) => !menus.some((m) => Number(m.menuId) === id));
    const resourceIds = checked.filter((k) => k.startsWith('r:')).map((k) => Number(k.slice(2)));
    setSaving(true);
    try {
      await api.grantMenus(selected.roleId, [...otherSystems, ...menuIds], tenantId);
      await api.grantResources(selected.roleId, resourceIds, tenantId);
      message.success(t('web.grantsSaved', { role: selected.roleName }));
    } catch {
      /* the request client showed the server's reason */
    } finally {
      setSaving(false);
    }
    const fresh = await api.roles(tenantId).catch(() => null);
    if (!fresh) return;
    setRoles(fresh);
    setSelected(fresh.find((r) => r.roleId === selected.roleId) || null);
  };

  return (
    <AdminOnly>
      <Space style={{ marginBottom: 12 }} wrap>
        <TenantPicker value={tenantId} onChange={setTenantId} />
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 240 }} />
        <Button type="primary" onClick={() => { form.resetFields(); setCreating(true); }} data-testid="role-new">{t('web.new')}</Button>
      </Space>
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <Table<Role> style={{ flex: 1 }} rowKey="roleId" size="small" dataSource={shown} onRow={(r) => ({ ...rowProps(), onClick: () => setSelected(r) })}
          rowSelection={{ type: 'radio', selectedRowKeys: selected ? [selected.roleId] : [], onChange: (_, rows) => setSelected(rows[0] || null) }}
          pagination={pager(shown.length, page, setPage)}
          columns={[
            { title: t('web.roleCode'), dataIndex: 'roleCode' },
            { title: t('web.roleName'), dataIndex: 'roleName' },
            {
              title: t('web.actions'), key: 'a', render: (_, r) => (
                <Popconfirm title={t('web.confirmDelete')} onConfirm={() => api.deleteRole(r.roleId, tenantId).then(() => { message.success(t('web.deleted')); return reload(); }, () => undefined)}>
                  <Button size="small" type="link" danger data-testid={`role-delete-${r.roleCode}`}>{t('web.delete')}</Button>
                </Popconfirm>
              ),
            },
          ]} />
        <Card style={{ flex: 1 }} size="small" title={selected ? `${t('web.grant')}: ${selected.roleName}` : t('web.grant')}
          extra={selected && <Button type="primary" size="small" onClick={saveGrants} loading={saving} data-testid="grant-save">{t('web.save')}</Button>}>
          <Select value={systemCode} onChange={setSystemCode} aria-label={t('web.system')} style={{ width: 220, marginBottom: 8 }} options={systems.map((s) => ({ value: s.systemCode, label: s.systemName }))} />
          {selected && (
            <Tree checkable checkStrictly defaultExpandAll treeData={tree} checkedKeys={checked} data-testid="grant-tree"
              onCheck={(keys) => setChecked(((Array.isArray(keys) ? keys : keys.checked) as string[]))} />
          )}
        </Card>
      </div>
      <Modal open={creating} title={t('web.new')} onCancel={() => setCreating(false)} destroyOnHidden
        onOk={async () => { const v = await form.validateFields(); await api.createRole({ ...v, tenantId }); setCreating(false); message.success(t('web.saved')); reload(); }}>
        <Form form={form} layout="vertical">
          <Form.Item name="roleCode" label={t('web.roleCode')} rules={[{ required: true, pattern: /^[A-Za-z0-9_-]{1,64}$/, message: t('web.codeRule') }]}><Input /></Form.Item>
          <Form.Item name="roleName" label={t('web.roleName')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input /></Form.Item>
        </Form>
      </Modal>
    </AdminOnly>
  );
}
