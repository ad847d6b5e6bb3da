import { useCallback, useEffect, useState } from 'react';
import { Button, Input, Space, Table, Typography } from 'antd';
import { saveBlob, useT } from '@atrium/sdk';
import { api, type AuditRow } from '../api';
import { AdminOnly, PAGE_SIZE, TenantPicker, pager, rowProps } from '../common';

export function Audit() {
  const t = useT('admin');
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: AuditRow[] }>({ total: 0, list: [] });
  const reload = useCallback(() => api.audit({ tenantId, keyword, pageIndex: page, pageRows: PAGE_SIZE }).then(setData), [tenantId, keyword, page]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  const exportCsv = async () => {
    const file = await api.auditExport({ tenantId, keyword });
    saveBlob(new Blob(['\ufeff', file.content], { type: 'text/csv;charset=utf-8' }), file.fileName);
  };
  const json = (s: string) => s && <Typography.Text code style={{ fontSize: 12 }} ellipsis={{ tooltip: s }}>{s}</Typography.Text>;
  return (
    <AdminOnly>
      <Space style={{ marginBottom: 12 }}>
        <TenantPicker value={tenantId} onChange={(v) => { setTenantId(v); setPage(1); }} />
        <Input.Search allowClear placeholder={t('web.search')} onSearch={(v) => { setKeyword(v); setPage(1); }} style={{ width: 260 }} data-testid="audit-search" />
        <Button onClick={exportCsv}>{t('web.export')}</Button>
      </Space>
      <Table<AuditRow> rowKey="auditId" size="small" dataSource={data.list} onRow={rowProps} pagination={pager(data.total, page, setPage)} tableLayout="fixed"
        columns={[
          { title: t('web.at'), dataIndex: 'at', width: 170 },
          { title: t('web.who'), dataIndex: 'account', width: 120 },
          { title: t('web.tenantId'), dataIndex: 'tenantId', width: 110 },
          { title: t('web.action'), dataIndex: 'action', width: 160 },
          { title: t('web.target'), dataIndex: 'target', width: 140 },
          { title: t('web.before'), dataIndex: 'before', render: json },
          { title: t('web.after'), dataIndex: 'after', render: json },
        ]} />
    </AdminOnly>
  );
}
