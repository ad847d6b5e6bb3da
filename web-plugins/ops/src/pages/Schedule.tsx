import { useCallback, useState, type HTMLAttributes } from 'react';
import { Alert, App as AntApp, Badge, Button, Card, Empty, Grid, Popconfirm, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '@atrium/sdk';
import * as api from '../api';
import { formatDate, humanDuration, usePolling } from '../format';
import { PageHead, SuperAdminOnly } from '../parts';

const OUTCOME_COLOR: Record<string, string> = { ok: 'success', failed: 'error', running: 'processing', lost: 'warning', paused: 'default', skipped: 'default' };
const TASK_COLOR: Record<api.TaskState, string> = { queued: 'default', running: 'processing', failed: 'error', done: 'success' };
type Filter = 'all' | api.TaskState;

interface Data {
  jobs: api.Jobs;
  tasks: api.Task[];
}

/** /schedule: the scheduled jobs (run now, pause, resume) and the recent background tasks (retry the failed). */
function SchedulePage() {
  const t = useT('ops');
  const { message } = AntApp.useApp();
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState('');
  // on a phone the actions scroll with the row: a fixed column would cover half of the narrow table
  const actionsFixed = Grid.useBreakpoint().md ? 'right' as const : undefined;
  const load = useCallback(async (): Promise<Data> => {
    const [jobs, tasks] = await Promise.all([api.jobs(), api.tasks(filter === 'all' ? undefined : filter)]);
    return { jobs, tasks };
  }, [filter]);
  const { data, error, updatedAt, reload, loading } = usePolling(load);
  const refresh = () => { reload().catch(() => undefined); };

  const act = async (key: string, call: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await call();
      message.success(done);
      await reload();
    } catch {
      /* the server's message was shown */
    } finally {
      setBusy('');
    }
  };

  const changeFilter = (value: Filter) => {
    setFilter(value);
    // the loader changes with the filter: load at once rather than at the next tick
    setTimeout(refresh, 0);
  };

  const jobColumns: ColumnsType<api.Job> = [
    {
      title: t('web.schedule.job'), dataIndex: 'id', key: 'id',
      render: (v: string, j) => (
        <Space size={4} wrap={false}>
          <Typography.Text code>{v}</Typography.Text>
          <Tag>{j.plugin}</Tag>
        </Space>
      ),
    },
    {
      title: t('web.schedule.trigger'), key: 'trigger',
      render: (_: unknown, j) => (j.intervalSeconds
        ? <Tooltip title={j.triggerText}>{t('web.schedule.every', { period: humanDuration(j.intervalSeconds * 1000, t) })}</Tooltip>
        : <Typography.Text code>{j.triggerText}</Typography.Text>),
    },
    { title: t('web.schedule.nextRun'), dataIndex: 'nextRunAt', key: 'next', render: (v: string | null, j) => (j.paused ? '—' : formatDate(v, t.locale)) },
    {
      title: t('web.schedule.status'), key: 'status',
      render: (_: unknown, j) => (j.paused
        ? <Tooltip title={t('web.schedule.pausedBy', { who: j.pausedBy || '—', time: formatDate(j.pausedAt, t.locale) })}>
          <Badge status="warning" text={t('web.schedule.paused')} data-testid="ops-job-paused" />
        </Tooltip>
        : <Badge status="success" text={t('web.schedule.active')} />),
    },
    {
      title: t('web.schedule.lastRun'), key: 'last',
      render: (_: unknown, j) => {
        const r = j.lastRun;
        if (!r) return <Typography.Text type="secondary">{t('web.schedule.never')}</Typography.Text>;
        const tag = (
          <Tag color={OUTCOME_COLOR[r.outcome] || 'default'} data-testid="ops-job-outcome">
            {t(`web.schedule.outcomes.${r.outcome}`, { defaultValue: r.outcome })}
          </Tag>
        );
        return (
          <Space orientation="vertical" size={0}>
            <Space size={4} wrap={false}>
              {r.error ? <Tooltip title={r.error}>{tag}</Tooltip> : tag}
              {r.manual && <Tag color="blue">{t('web.schedule.manual')}</Tag>}
            </Space>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {formatDate(r.endedAt || r.startedAt, t.locale)} · {humanDuration(r.durationMs, t)} · {r.node}
            </Typography.Text>
          </Space>
        );
      },
    },
    {
      title: t('web.schedule.actions'), key: 'actions', fixed: actionsFixed,
      render: (_: unknown, j) => (
        <Space size={0} wrap={false}>
          <Popconfirm title={t('web.schedule.runConfirm', { job: j.id })} okText={t('web.schedule.ok')} cancelText={t('web.schedule.cancel')}
            onConfirm={() => act(`run:${j.id}`, () => api.runJob(j.id), t('web.schedule.runQueued', { job: j.id }))}>
            <Button size="small" type="link" loading={busy === `run:${j.id}`} data-testid="ops-run">{t('web.schedule.runNow')}</Button>
          </Popconfirm>
          {j.paused ? (
            <Popconfirm title={t('web.schedule.resumeConfirm', { job: j.id })} okText={t('web.schedule.ok')} cancelText={t('web.schedule.cancel')}
              onConfirm={() => act(`resume:${j.id}`, () => api.resumeJob(j.id), t('web.schedule.resumed', { job: j.id }))}>
              <Button size="small" type="link" loading={busy === `resume:${j.id}`} data-testid="ops-resume">{t('web.schedule.resume')}</Button>
            </Popconfirm>
          ) : (
            <Popconfirm title={t('web.schedule.pauseConfirm', { job: j.id })} okText={t('web.schedule.ok')} cancelText={t('web.schedule.cancel')}
              onConfirm={() => act(`pause:${j.id}`, () => api.pauseJob(j.id), t('web.schedule.paused_ok', { job: j.id }))}>
              <Button size="small" type="link" danger loading={busy === `pause:${j.id}`} data-testid="ops-pause">{t('web.schedule.pause')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const taskColumns: ColumnsType<api.Task> = [
    {
      title: t('web.schedule.task'), dataIndex: 'func', key: 'func',
      render: (v: string, k) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text code>{v.split('.').slice(-2).join('.')}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{k.id}</Typography.Text>
        </Space>
      ),
    },
    { title: t('web.schedule.state'), dataIndex: 'state', key: 'state', render: (v: api.TaskState) => <Tag color={TASK_COLOR[v]}>{t(`web.schedule.taskStates.${v}`)}</Tag> },
    { title: t('web.schedule.enqueuedAt'), dataIndex: 'enqueuedAt', key: 'enqueued', render: (v: string | null) => formatDate(v, t.locale) },
    {
      title: t('web.schedule.duration'), key: 'duration',
      render: (_: unknown, k) => (k.startedAt && k.endedAt ? humanDuration(Date.parse(k.endedAt) - Date.parse(k.startedAt), t) : '—'),
    },
    {
      title: t('web.schedule.error'), dataIndex: 'error', key: 'error',
      render: (v: string) => (v ? <Typography.Text type="danger" style={{ maxWidth: 320, display: 'inline-block' }} ellipsis={{ tooltip: v }}>{v}</Typography.Text> : '—'),
    },
    {
      title: t('web.schedule.actions'), key: 'actions', fixed: actionsFixed,
      render: (_: unknown, k) => (k.state === 'failed' ? (
        <Popconfirm title={t('web.schedule.retryConfirm')} okText={t('web.schedule.ok')} cancelText={t('web.schedule.cancel')}
          onConfirm={() => act(`retry:${k.id}`, () => api.retryTask(k.id), t('web.schedule.retried'))}>
          <Button size="small" type="link" loading={busy === `retry:${k.id}`} data-testid="ops-retry">{t('web.schedule.retry')}</Button>
        </Popconfirm>
      ) : null),
    },
  ];

  const filters: Filter[] = ['all', 'queued', 'running', 'failed', 'done'];
  return (
    <div className="at-page" data-testid="ops-schedule" style={{ maxWidth: '100%', overflow: 'hidden' }}>
      <PageHead title={t('web.schedule.title')} updatedAt={updatedAt} loading={loading} onRefresh={refresh} error={error} />
      {data && !data.jobs.scheduler && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('web.schedule.schedulerOff', { node: data.jobs.node })} />
      )}
      <Card size="small" style={{ marginBottom: 16 }} data-testid="ops-jobs">
        <Table<api.Job> rowKey="id" size="small" columns={jobColumns} dataSource={data?.jobs.jobs || []} loading={!data && !error}
          pagination={false} scroll={{ x: 'max-content' }} onRow={() => ({ 'data-testid': 'ops-job' }) as HTMLAttributes<HTMLElement>} />
      </Card>
      <Card size="small" data-testid="ops-tasks"
        title={<Space wrap size={8}><span>{t('web.schedule.tasks')}</span><Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>{t('web.schedule.tasksHint')}</Typography.Text></Space>}>
        <div style={{ overflowX: 'auto', marginBottom: 8 }}>
          <Segmented<Filter> size="small" value={filter} onChange={changeFilter} data-testid="ops-task-filter"
            options={filters.map((f) => ({ value: f, label: f === 'all' ? t('web.schedule.all') : t(`web.schedule.taskStates.${f}`) }))} />
        </div>
        <Table<api.Task> rowKey="id" size="small" columns={taskColumns} dataSource={data?.tasks || []} loading={!data && !error}
          pagination={{ pageSize: 10, hideOnSinglePage: true, size: 'small' }} scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.schedule.noTasks')} /> }} />
      </Card>
    </div>
  );
}

export function Schedule() {
  return <SuperAdminOnly><SchedulePage /></SuperAdminOnly>;
}
