/** The first rows of a dataset or a draft: one column per field, keyed by its dataeaseName (or origin name). */
import { Table } from 'antd';
import { useMemo } from 'react';
import type { Row } from './types';
import { useDT } from './i18n';
import { formatCell } from './cells';

export interface PreviewColumn {
  key: string;
  title: string;
  type?: string;
}

export function PreviewTable({ columns, rows, loading }: { columns: PreviewColumn[]; rows: Row[]; loading?: boolean }) {
  const { t, locale } = useDT();
  const tableColumns = useMemo(
    () =>
      columns.map((c) => ({
        key: c.key,
        dataIndex: c.key,
        title: c.title,
        ellipsis: true,
        width: Math.min(260, Math.max(110, c.title.length * 14 + 32)),
        align: c.type === 'integer' || c.type === 'float' ? ('right' as const) : undefined,
        render: (v: unknown) => formatCell(v, c.type, locale),
      })),
    [columns, locale],
  );
  const data = useMemo(() => rows.map((r, i) => ({ ...r, __row: i })), [rows]);
  return (
    <Table
      data-testid="dataset-preview"
      size="small"
      rowKey="__row"
      columns={tableColumns}
      dataSource={data}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content', y: 360 }}
      locale={{ emptyText: t('dataset.previewEmpty') }}
      footer={rows.length ? () => t('dataset.previewCount', { count: rows.length }) : undefined}
    />
  );
}
