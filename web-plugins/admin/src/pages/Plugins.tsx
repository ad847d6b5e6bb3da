import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Space, Switch, Table, Tag, Typography } from 'antd';
import { useT } from '@atrium/sdk';
import { api, type PluginRow } from '../api';
import { AdminOnly, TenantPicker, rowProps } from '../common';

export function Plugins() {
  const t = useT('admin');
  const { message } = AntApp.useApp();
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [rows, setRows] = useState<PluginRow[]>([]);
  const reload = useCallback(() => api.plugins(tenantId).then(setRows), [tenantId]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  return (
    <AdminOnly>
      <Space style={{ marginBottom: 12 }}><TenantPicker value={tenantId} onChange={setTenantId} /></Space>
      <Table<PluginRow> rowKey="name" size="small" dataSource={rows} onRow={rowProps} pagination={false}
        columns={[
          { title: t('web.plugin'), dataIndex: 'name' },
          { title: t('web.version'), dataIndex: 'version' },
          { title: t('web.status'), dataIndex: 'status', render: (s: string) => <Tag color={s === 'loaded' ? 'green' : 'red'}>{s}</Tag> },
          { title: t('web.error'), dataIndex: 'error', render: (e?: string) => e && <Typography.Text type="danger">{e}</Typography.Text> },
          {
            title: t('web.enabled'), key: 'on', render: (_, p) => (
              <Switch data-testid={`plugin-${p.name}`} checked={p.enabled} disabled={p.status !== 'loaded' || (p.essential && p.enabled)}
                onChange={async (on) => { await api.pluginState(p.name, on, tenantId); message.success(t('web.saved')); reload(); }} />
            ),
          },
        ]} />
    </AdminOnly>
  );
}
