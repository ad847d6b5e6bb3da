/** /data-transfer/exports: export records (spec 2.4): exportId, status, requestUrl, creationDate, functionName,
 * userName, action, errorMsg; a finished file can be downloaded. */
import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Progress, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '@atrium/sdk';
import { downloadStored, exportRecords, type ExportRecord } from '../api';

const PAGE_SIZE = 20;
const COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error', 4: 'warning' };

export function ExportRecords() {
  const t = useT('transfer');
  const [rows, setRows] = useState<ExportRecord[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async (p: number, s?: number) => {
    setLoading(true);
    try {
      const data = await exportRecords(p, PAGE_SIZE, s);
      setRows(data.list);
      setTotal(data.total);
      setPage(p);
    } catch {
      /* shown */
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load(1, status);
  }, [load, status]);
  useEffect(() => {
    if (!rows.some((r) => r.status === 0 || r.status === 1)) return undefined;
    const timer = setTimeout(() => load(page, status), 2000);
    return () => clearTimeout(timer);
  }, [rows, page, status, load]);

  const columns: ColumnsType<ExportRecord> = [
    { title: t('web.exportId'), dataIndex: 'exportId', width: 90 },
    {
      title: t('web.records.status'), dataIndex: 'status', width: 150,
      render: (s: number, row) => (s === 1 ? <Progress percent={row.progress} size="small" /> : <Tag color={COLORS[s]}>{t(`web.status.${s}`)}</Tag>),
    },
    { title: t('web.records.requestUrl'), dataIndex: 'requestUrl', ellipsis: true },
    { title: t('web.records.creationDate'), dataIndex: 'creationDate', width: 170 },
    { title: t('web.records.functionName'), dataIndex: 'functionName', ellipsis: true },
    { title: t('web.records.userName'), dataIndex: 'userName', width: 120 },
    {
      title: t('web.records.action'), dataIndex: 'action', width: 120,
      render: (a: string, row) => (row.status === 2 && row.url
        ? <Button type="link" size="small" data-testid={`download-${row.exportId}`} onClick={() => downloadStored(row.fileName, row.url)}>{t('web.download')}</Button>
        : <span>{t(`web.records.kind.${a}`, { defaultValue: a })}</span>),
    },
    { title: t('web.records.errorMsg'), dataIndex: 'errorMsg', ellipsis: true },
  ];
  return (
    <div className="at-page" style={{ padding: 16 }}>
      <Card title={t('web.records.title')} extra={(
        <Space>
          <Select allowClear style={{ width: 140 }} placeholder={t('web.records.status')} aria-label={t('web.records.status')} value={status} onChange={setStatus}
            options={[0, 1, 2, 3, 4].map((s) => ({ value: s, label: t(`web.status.${s}`) }))} />
          <Button onClick={() => load(page, status)}>{t('web.refresh')}</Button>
        </Space>
      )}>
        <Table rowKey="exportId" size="middle" loading={loading} columns={columns} dataSource={rows} data-testid="export-records"
          pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: (p) => load(p, status) }} />
      </Card>
    </div>
  );
}
