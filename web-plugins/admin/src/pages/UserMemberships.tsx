import { useEffect, useState } from 'react';
import { Button, Checkbox, List, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useT } from '@atrium/sdk';
import { api, isSuperAdmin, type Membership, type Tenant } from '../api';

/** The tenants a user belongs to, with the supervisor flag and roles per tenant. Super administrators
 * add and remove memberships and switch the supervisor flag; everyone else reads them. */
export function UserMemberships({ userId, memberships, onChange }: { userId: number; memberships: Membership[]; onChange: () => void }) {
  const t = useT('admin');
  const editable = isSuperAdmin();
  const [tenants, setTenants] = useState<Tenant[]>([]);
  const [adding, setAdding] = useState<number | undefined>();
  const [addAsSupervisor, setAddAsSupervisor] = useState(false);
  useEffect(() => { if (editable) api.tenants().then(setTenants, () => undefined); }, [editable]);
  const joined = new Set(memberships.map((m) => m.tenantId));
  const add = async () => {
    if (adding === undefined) return;
    await api.setMembership(userId, adding, addAsSupervisor);
    setAdding(undefined);
    setAddAsSupervisor(false);
    onChange();
  };
  return (
    <div data-testid="user-memberships">
      <h4>{t('web.memberships')}</h4>
      <List size="small" bordered dataSource={memberships} rowKey="tenantId"
        renderItem={(m) => (
          <List.Item data-testid={`membership-${m.tenantId}`}
            actions={editable ? [
              <Switch key="s" size="small" checked={m.supervisor} checkedChildren={t('web.supervisor')} unCheckedChildren={t('web.supervisor')}
                data-testid={`membership-supervisor-${m.tenantId}`}
                onChange={(checked) => api.setMembership(userId, m.tenantId, checked).then(onChange, () => undefined)} />,
              <Popconfirm key="r" title={t('web.confirmRemoveMembership', { tenant: m.tenantName })}
                onConfirm={() => api.removeMembership(userId, m.tenantId).then(onChange, () => undefined)}>
                <Button size="small" type="link" danger data-testid={`membership-remove-${m.tenantId}`}>{t('web.remove')}</Button>
              </Popconfirm>,
            ] : []}>
            <Space wrap>
              <span>{m.tenantName} ({m.tenantId})</span>
              {m.supervisor && <Tag color="blue">{t('web.supervisor')}</Tag>}
              {!m.enabled && <Tag>{t('web.disabled')}</Tag>}
              {m.roles.map((r) => <Tag key={r.roleId}>{r.roleName}</Tag>)}
            </Space>
          </List.Item>
        )} />
      {editable && (
        <Space style={{ marginTop: 8 }} wrap>
          <Select showSearch optionFilterProp="label" placeholder={t('web.addToTenant')} aria-label={t('web.addToTenant')} style={{ width: 240 }} value={adding}
            data-testid="membership-tenant" onChange={(v) => setAdding(v as number)}
            options={tenants.filter((x) => !joined.has(x.tenantId)).map((x) => ({ value: x.tenantId, label: `${x.tenantName} (${x.tenantId})` }))} />
          <Checkbox checked={addAsSupervisor} onChange={(e) => setAddAsSupervisor(e.target.checked)} data-testid="membership-supervisor-new">{t('web.supervisor')}</Checkbox>
          <Button type="primary" disabled={adding === undefined} onClick={add} data-testid="membership-add">{t('web.addMembership')}</Button>
        </Space>
      )}
    </div>
  );
}
