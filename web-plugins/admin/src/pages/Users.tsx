import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Checkbox, Drawer, Form, Input, Modal, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { runExportTask, useT } from '@atrium/sdk';
import { api, type Membership, type PasswordStrategy, type Role, type UserRow } from '../api';
import { UserMemberships } from './UserMemberships';
import { AdminOnly, EMAIL, PAGE_SIZE, PHONE, TenantPicker, pager, rowProps } from '../common';

function UserDetail({ user, tenantId, onClose }: { user: UserRow; tenantId?: number; onClose: () => void }) {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [memberships, setMemberships] = useState<Membership[]>([]);
  const [roles, setRoles] = useState<Role[]>([]);
  const [perms, setPerms] = useState<{ menus: { menuId: string; menuName: string }[]; resources: { resourceName: string; resourceCode: string }[] }>();
  const reload = useCallback(() => Promise.all([
    api.userDetail(user.userId, tenantId).then((d) => setMemberships(d.memberships)),
    api.permissions(user.userId, tenantId).then(setPerms),
  ]).then(() => undefined), [user.userId, tenantId]);
  useEffect(() => { reload().catch(() => undefined); api.roles(tenantId).then(setRoles, () => undefined); }, [reload, tenantId]);
  const own = memberships.find((m) => m.tenantId === (tenantId ?? user.tenantId));
  const [busy, setBusy] = useState<number | null>(null);
  /** Gives or takes a role and says so; on a refusal the request client shows the server's reason. */
  const toggleRole = async (r: Role, on: boolean) => {
    setBusy(r.roleId);
    try {
      await (on ? api.assignRole : api.removeRole)(user.userId, r.roleId, tenantId);
      await reload().catch(() => undefined); // the box and the effective permissions show it, then the message
      message.success(t(on ? 'web.roleAssigned' : 'web.roleRemoved', { role: r.roleName, user: user.userFullName || user.account }));
    } catch {
      /* shown by the request client */
    } finally {
      setBusy(null);
    }
  };
  return (
    <Drawer open width={600} title={`${user.userFullName} (${user.account})`} onClose={onClose}>
      <UserMemberships userId={user.userId} memberships={memberships} onChange={() => { reload().catch(() => undefined); }} />
      <h4 style={{ marginTop: 16 }}>{t('web.roles')}</h4>
      <Space direction="vertical">
        {roles.map((r) => {
          const has = !!own?.roles.some((x) => x.roleId === r.roleId);
          return (
            <Checkbox key={r.roleId} checked={has} disabled={busy === r.roleId} data-testid={`user-role-${r.roleCode}`}
              onChange={(e) => { void toggleRole(r, e.target.checked); }}>
              {r.roleName} ({r.roleCode})
            </Checkbox>
          );
        })}
      </Space>
      <h4 style={{ marginTop: 16 }}>{t('web.permissions')}</h4>
      <div data-testid="effective-permissions">
        <div>{t('web.menus')}: {perms?.menus.map((m) => <Tag key={m.menuId}>{m.menuName}</Tag>)}</div>
        <div style={{ marginTop: 8 }}>{t('web.buttons')}: {perms?.resources.map((r) => <Tag key={r.resourceCode} color="purple">{r.resourceName}</Tag>)}</div>
      </div>
    </Drawer>
  );
}

export function Users() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: UserRow[] }>({ total: 0, list: [] });
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null);
  const [detail, setDetail] = useState<UserRow | null>(null);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [form] = Form.useForm();
  const [pwdForm] = Form.useForm();
  const [rule, setRule] = useState<PasswordStrategy | null>(null);
  useEffect(() => { api.passwordStrategy(tenantId).then(setRule, () => setRule(null)); }, [tenantId]);
  const passwordRules = [
    { required: true, message: t('web.required') },
    ...(rule?.pattern ? [{ pattern: new RegExp(rule.pattern), message: rule.pwdTips }] : []),
  ];
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);
  const exportUsers = async () => {
    setExporting(true);
    try {
      await runExportTask({
        url: 'api/admin/users/export', fileName: 'users',
        columnList: ['account', 'userFullName', 'mobile', 'email', 'staffNo', 'department'].map((key) => ({ key, title: t(`web.${key}`) })),
      });
    } finally {
      setExporting(false);
    }
  };

  const reload = useCallback(() => api.users({ tenantId, keyword, pageIndex: page, pageRows: PAGE_SIZE }).then(setData), [tenantId, keyword, page]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);

  const open = (row: UserRow | 'new') => { form.resetFields(); if (row !== 'new') form.setFieldsValue({ ...row, supervisor: row.isAdmin === 2 }); setEditing(row); };
  const save = async () => {
    const v = await form.validateFields();
    if (editing === 'new') await api.createUser({ ...v, tenantId });
    else if (editing) await api.updateUser({ userId: editing.userId, userFullName: v.userFullName, mobile: v.mobile || '', email: v.email || '', supervisor: v.supervisor, tenantId });
    message.success(t('web.saved'));
    setEditing(null);
    reload();
  };
  const done = () => { message.success(t('web.saved')); reload(); };

  return (
    <AdminOnly>
      <Space style={{ marginBottom: 12 }} wrap>
        <TenantPicker value={tenantId} onChange={(v) => { setTenantId(v); setPage(1); }} />
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 260 }} data-testid="user-search" />
        <Button type="primary" onClick={() => open('new')} data-testid="user-new">{t('web.new')}</Button>
        <Button onClick={() => navigate('/data-transfer/import')}>{t('web.import')}</Button>
        <Button onClick={exportUsers} loading={exporting}>{t('web.export')}</Button>
      </Space>
      <Table<UserRow> rowKey="userId" size="small" dataSource={data.list} onRow={rowProps} pagination={pager(data.total, page, setPage)}
        columns={[
          { title: t('web.account'), dataIndex: 'account' },
          { title: t('web.userFullName'), dataIndex: 'userFullName' },
          { title: t('web.mobile'), dataIndex: 'mobile' },
          { title: t('web.email'), dataIndex: 'email' },
          { title: t('web.supervisor'), dataIndex: 'isAdmin', render: (v: number) => (v === 2 ? t('web.yes') : t('web.no')) },
          { title: t('web.state'), key: 's', render: (_, u) => <Space>{<Tag color={u.enabled ? 'green' : 'default'}>{t(u.enabled ? 'web.enabled' : 'web.disabled')}</Tag>}{u.locked && <Tag color="red">{t('web.locked')}</Tag>}</Space> },
          {
            title: t('web.actions'), key: 'a', render: (_, u) => (
              <Space size={0}>
                <Button size="small" type="link" onClick={() => open(u)}>{t('web.edit')}</Button>
                <Button size="small" type="link" onClick={() => setDetail(u)} data-testid={`user-roles-${u.account}`}>{t('web.roles')}</Button>
                <Popconfirm title={t(u.enabled ? 'web.confirmDisable' : 'web.confirmEnable')} onConfirm={() => api.userState(u.userId, !u.enabled, tenantId).then(done)}>
                  <Button size="small" type="link" danger={u.enabled}>{t(u.enabled ? 'web.disable' : 'web.enable')}</Button>
                </Popconfirm>
                <Button size="small" type="link" onClick={() => { pwdForm.resetFields(); setResetting(u); }}>{t('web.resetPassword')}</Button>
                <Popconfirm title={t('web.confirmUnlock')} onConfirm={() => api.unlock(u.userId, tenantId).then(done)}>
                  <Button size="small" type="link">{t('web.unlock')}</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]} />
      <Modal open={editing !== null} title={t(editing === 'new' ? 'web.new' : 'web.edit')} onOk={save} onCancel={() => setEditing(null)} destroyOnHidden>
        <Form form={form} layout="vertical">
          <Form.Item name="account" label={t('web.account')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input disabled={editing !== 'new'} /></Form.Item>
          {editing === 'new' && (
            <Form.Item name="password" label={t('web.password')} rules={passwordRules} extra={rule?.pwdTips}><Input.Password /></Form.Item>
          )}
          <Form.Item name="userFullName" label={t('web.userFullName')} rules={[{ required: true, whitespace: true, max: 64, message: t('web.required') }]}><Input /></Form.Item>
          <Form.Item name="mobile" label={t('web.mobile')} rules={[{ pattern: PHONE, message: t('phone_invalid') }]}><Input /></Form.Item>
          <Form.Item name="email" label={t('web.email')} rules={[{ pattern: EMAIL, message: t('email_invalid') }]}><Input /></Form.Item>
          <Form.Item name="supervisor" label={t('web.supervisor')} valuePropName="checked"><Switch /></Form.Item>
        </Form>
      </Modal>
      <Modal open={resetting !== null} title={t('web.resetPassword')} onCancel={() => setResetting(null)}
        onOk={async () => {
          const v = await pwdForm.validateFields();
          Modal.confirm({ title: t('web.confirmReset'), onOk: async () => { if (resetting) await api.resetPassword(resetting.userId, v.password, tenantId); setResetting(null); done(); } });
        }}>
        <Form form={pwdForm} layout="vertical">
          <Form.Item name="password" label={t('web.password')} rules={passwordRules} extra={rule?.pwdTips}><Input.Password /></Form.Item>
        </Form>
      </Modal>
      {detail && <UserDetail user={detail} tenantId={tenantId} onClose={() => { setDetail(null); reload(); }} />}
    </AdminOnly>
  );
}
