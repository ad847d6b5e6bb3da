import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, DatePicker, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { saveBlob, useT } from '@atrium/sdk';
import { AdminOnly, PAGE_SIZE, TenantPicker, pager, rowProps } from '../common';
import { AuditChanges } from './AuditChanges';
import { auditApi, type AuditAction, type AuditEntry, type AuditParams, type AuditPerson } from './auditApi';

const DAY = 'YYYY-MM-DD';
/** The record's time in the reader's own time zone, to the second. */
const localTime = (row: AuditEntry) => (row.atUtc ? dayjs(row.atUtc).format('YYYY-MM-DD HH:mm:ss') : row.at);

export function Audit() {
  const t = useT('admin');
  const [tenantId, setTenantId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [action, setAction] = useState<string | undefined>();
  const [userId, setUserId] = useState<number | undefined>();
  const [dates, setDates] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ total: number; list: AuditEntry[] }>({ total: 0, list: [] });
  const [actions, setActions] = useState<AuditAction[]>([]);
  const [people, setPeople] = useState<AuditPerson[]>([]);

  const filters = useMemo<AuditParams>(() => ({
    tenantId, keyword, action, userId,
    dateFrom: dates?.[0]?.format(DAY), dateTo: dates?.[1]?.format(DAY),
  }), [tenantId, keyword, action, userId, dates]);
  const reload = useCallback(() => auditApi.page({ ...filters, pageIndex: page, pageRows: PAGE_SIZE }).then(setData), [filters, page]);
  useEffect(() => { reload().catch(() => undefined); }, [reload]);
  useEffect(() => {
    auditApi.actions(tenantId).then(setActions).catch(() => undefined);
    auditApi.people(tenantId).then(setPeople).catch(() => undefined);
  }, [tenantId]);

  const change = <V,>(set: (v: V) => void) => (v: V) => { set(v); setPage(1); };
  const exportCsv = async () => {
    const file = await auditApi.exportCsv(filters);
    saveBlob(new Blob(['\ufeff', file.content], { type: 'text/csv;charset=utf-8' }), file.fileName);
  };
  return (
    <AdminOnly>
      <Space wrap style={{ marginBottom: 12 }}>
        <TenantPicker value={tenantId} onChange={change(setTenantId)} placeholder={t('web.allTenants')} />
        <Select<number> allowClear showSearch optionFilterProp="label" placeholder={t('web.allPeople')} style={{ width: 220 }}
          value={userId} onChange={change(setUserId)} aria-label={t('web.person')} data-testid="audit-person"
          options={people.map((p) => ({ value: p.userId, label: p.label }))} />
        <Select<string> allowClear showSearch optionFilterProp="label" placeholder={t('web.allActions')} style={{ width: 260 }}
          value={action} onChange={change(setAction)} aria-label={t('web.action')} data-testid="audit-action"
          options={actions.map((a) => ({ value: a.action, label: a.text }))} />
        <DatePicker.RangePicker value={dates} onChange={change(setDates)} placeholder={[t('web.dateRange'), t('web.dateRange')]} data-testid="audit-dates" />
        <Input.Search allowClear placeholder={t('web.search')} onSearch={change(setKeyword)} style={{ width: 220 }} data-testid="audit-search" />
        <Button onClick={exportCsv}>{t('web.export')}</Button>
      </Space>
      <Table<AuditEntry> rowKey="auditId" size="small" dataSource={data.list} onRow={rowProps} pagination={pager(data.total, page, setPage)} tableLayout="fixed" scroll={{ x: 1100 }}
        columns={[
          { title: t('web.at'), key: 'at', width: 160, render: (_: unknown, row) => localTime(row) },
          { title: t('web.person'), dataIndex: 'who', width: 170, ellipsis: { showTitle: true } },
          { title: t('web.tenant'), dataIndex: 'tenantName', width: 120, ellipsis: { showTitle: true } },
          {
            title: t('web.action'), dataIndex: 'actionText', width: 200,
            render: (text: string, row) => <Tooltip title={row.action}><span>{text}</span></Tooltip>,
          },
          {
            title: t('web.object'), key: 'object', width: 200,
            render: (_: unknown, row) => (
              <Tooltip title={row.summary}>
                <span>
                  {row.targetTypeText && <Typography.Text type="secondary">{row.targetTypeText} </Typography.Text>}
                  <Typography.Text>{row.targetLabel}</Typography.Text>
                </span>
              </Tooltip>
            ),
          },
          {
            title: t('web.changes'), key: 'changes', width: 250,
            render: (_: unknown, row) => <AuditChanges changes={row.changes ?? []} empty={t('web.noChanges')} />,
          },
        ]} />
    </AdminOnly>
  );
}
