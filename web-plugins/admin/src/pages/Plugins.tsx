import { useCallback, useEffect, useState } from 'react';
import { Alert, App as AntApp, Grid, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { session, useT } from '@atrium/sdk';
import { api, isSuperAdmin, type PluginRow, type Tenant } from '../api';
import { AdminOnly, TenantPicker, rowProps } from '../common';

/** The plugins of one tenant, named above the table; every switch asks first, naming the plugin and the
 * tenant, and the plugins that must stay on (the console's own, essential ones) show a locked switch
 * saying why (the server refuses to switch them off as well). */
export function Plugins() {
  const t = useT('admin');
  const { message, modal } = AntApp.useApp();
  const ownId = Number(session.profile.tenantId);
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [tenants, setTenants] = useState<Tenant[]>([]);
  const [shown, setShown] = useState<{ tenantId: number; rows: PluginRow[] } | null>(null);
  const target = tenantId ?? ownId;
  const tenantName = tenants.find((x) => x.tenantId === target)?.tenantName
    ?? (target === ownId ? String(session.profile.tenantName || '') : '');
  const tenantLabel = tenantName || String(target);

  useEffect(() => { if (isSuperAdmin()) api.tenants().then(setTenants, () => undefined); }, []);
  const reload = useCallback(
    () => api.plugins(tenantId).then((rows) => setShown({ tenantId: tenantId ?? ownId, rows })),
    [tenantId, ownId],
  );
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  const current = shown && shown.tenantId === target ? shown.rows : [];
  const narrow = !Grid.useBreakpoint().md;

  const ask = (p: PluginRow, on: boolean) => {
    const words = { plugin: p.name, tenant: tenantLabel };
    modal.confirm({
      title: t(on ? 'web.pluginConfirmEnable' : 'web.pluginConfirmDisable', words),
      content: t(on ? 'web.pluginEnableHint' : 'web.pluginDisableHint', words),
      okText: t(on ? 'web.enable' : 'web.disable'),
      cancelText: t('web.cancel'),
      okButtonProps: { danger: !on, ...({ 'data-testid': 'plugin-confirm-ok' } as object) },
      onOk: async () => {
        try {
          await api.pluginState(p.name, on, tenantId);
          message.success(t(on ? 'web.pluginEnabled' : 'web.pluginDisabled', words));
        } catch {
          /* the request client showed the server's reason */
        }
        await reload().catch(() => undefined);
      },
    });
  };

  const onSwitch: TableColumnsType<PluginRow>[number] = {
    title: t('web.enabled'), key: 'on', fixed: narrow ? undefined : 'right', width: 96, render: (_, p) => {
      const locked = p.status === 'loaded' && !!p.essential && p.enabled;
      const control = (
        <Switch aria-label={p.name} data-testid={`plugin-${p.name}`} checked={p.enabled} disabled={p.status !== 'loaded' || locked}
          onChange={(on) => ask(p, on)} />
      );
      return locked
        ? <Tooltip title={p.lockedReason || t('web.pluginLocked')}><span data-testid={`plugin-lock-${p.name}`} style={{ display: 'inline-block' }}>{control}</span></Tooltip>
        : control;
    },
  };
  const details: TableColumnsType<PluginRow> = [
    { title: t('web.version'), dataIndex: 'version' },
    { title: t('web.status'), dataIndex: 'status', render: (s: string) => <Tag color={s === 'loaded' ? 'green' : 'red'}>{t(`web.pluginStatus_${s}`, { defaultValue: s })}</Tag> },
    {
      title: t('web.error'), dataIndex: 'error',
      render: (e?: string) => e && <Typography.Text type="danger" style={{ display: 'inline-block', maxWidth: 360, whiteSpace: 'normal' }}>{e}</Typography.Text>,
    },
  ];
  const name: TableColumnsType<PluginRow>[number] = {
    title: t('web.plugin'), dataIndex: 'name', render: (n: string, p) => (
      <Space size={6}>{n}{p.essential && <Tag color="blue">{t('web.essential')}</Tag>}</Space>
    ),
  };
  // on a phone the switch comes right after the name, away from the page's floating buttons on the right
  const columns = narrow ? [name, onSwitch, ...details] : [name, ...details, onSwitch];

  return (
    <AdminOnly>
      <Space style={{ marginBottom: 12 }} wrap>
        <TenantPicker value={target} onChange={setTenantId} />
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="plugins-tenant"
        title={<span>{t('web.pluginsOfTenant')} <Typography.Text strong>{tenantLabel}</Typography.Text>{tenantName && <Typography.Text type="secondary"> ({target})</Typography.Text>}</span>}
        description={t('web.pluginsOfTenantHint')} />
      <Table<PluginRow> rowKey="name" size="small" dataSource={current} onRow={rowProps} pagination={false}
        loading={!shown || shown.tenantId !== target} scroll={{ x: 'max-content' }}
        columns={columns} />
    </AdminOnly>
  );
}
