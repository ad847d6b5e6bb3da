/** Import history (spec 2.4): batch, status, dataCount, successCount, creationDate, createdUserName. */
import { forwardRef, useCallback, useEffect, useImperativeHandle, useState } from 'react';
import { Button, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '@atrium/sdk';
import { downloadStored, history, type ImportResult } from '../api';

const PAGE_SIZE = 10;
const COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };

export interface ImportHistoryHandle {
  reload: () => void;
}

export const ImportHistory = forwardRef<ImportHistoryHandle, { importId: string }>(function ImportHistory({ importId }, ref) {
  const t = useT('transfer');
  const [rows, setRows] = useState<ImportResult[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async (p: number) => {
    setLoading(true);
    try {
      const data = await history(importId, p, PAGE_SIZE);
      setRows(data.list);
      setTotal(data.total);
      setPage(p);
    } catch {
      /* shown */
    } finally {
      setLoading(false);
    }
  }, [importId]);
  useEffect(() => {
    void load(1);
  }, [load]);
  useImperativeHandle(ref, () => ({ reload: () => void load(1) }), [load]);

  const columns: ColumnsType<ImportResult> = [
    { title: t('web.history.batch'), dataIndex: 'batch' },
    {
      title: t('web.history.status'), dataIndex: 'status', width: 120,
      render: (s: number, row) => {
        const tag = <Tag color={COLORS[s] || 'default'}>{t(`web.status.${s}`)}</Tag>;
        return row.errorMsg ? <Tooltip title={row.errorMsg}>{tag}</Tooltip> : tag;
      },
    },
    { title: t('web.history.dataCount'), dataIndex: 'dataCount', width: 110 },
    { title: t('web.history.successCount'), dataIndex: 'successCount', width: 110 },
    { title: t('web.history.creationDate'), dataIndex: 'creationDate', width: 180 },
    { title: t('web.history.createdUserName'), dataIndex: 'createdUserName', width: 140 },
    {
      title: t('web.history.failedFile'), key: 'file', width: 120,
      render: (_, row) => row.hasExcel ? <Button type="link" size="small" onClick={() => downloadStored(`failed-${row.batch}.xlsx`, row.excelUrl)}>{t('web.download')}</Button> : null,
    },
  ];
  return (
    <Table rowKey="batchId" size="middle" loading={loading} columns={columns} dataSource={rows} data-testid="import-history"
      pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: load }} />
  );
});
