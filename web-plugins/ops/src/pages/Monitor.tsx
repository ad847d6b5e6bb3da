import { useCallback, type HTMLAttributes } from 'react';
import { Badge, Card, Col, Descriptions, Empty, Row, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '@atrium/sdk';
import * as api from '../api';
import { formatDate, humanDuration, usePolling } from '../format';
import { PageHead, SuperAdminOnly } from '../parts';

interface Overview {
  nodes: api.NodeInfo[];
  readiness: api.Check[];
  queues: api.Queues;
  storage: api.StorageInfo;
}

/** Labels keep to one line: the value column takes what is left. */
const LABEL = { label: { whiteSpace: 'nowrap' as const, width: '1%' } };

const STATE_BADGE = { ok: 'success', failing: 'error', skipped: 'default' } as const;

function count(value: number | null): string {
  return value === null ? '—' : String(value);
}

/** /actuator-management: the nodes seen in the last minute, this node's readiness, the task queue, storage. */
function MonitorPage() {
  const t = useT('ops');
  const load = useCallback(async (): Promise<Overview> => {
    const [nodes, readiness, queues, storage] = await Promise.all([api.nodes(), api.readiness(), api.queues(), api.storage()]);
    return { nodes, readiness, queues, storage };
  }, []);
  const { data, error, updatedAt, reload, loading } = usePolling(load);

  const nodeColumns: ColumnsType<api.NodeInfo> = [
    {
      title: t('web.monitor.node'), dataIndex: 'node', key: 'node',
      render: (v: string, n) => (
        <Space size={4} wrap={false}>
          <Badge status={n.lastSeenSeconds <= 30 ? 'success' : 'warning'} />
          <Typography.Text code>{v}</Typography.Text>
          {n.current && <Tag color="blue">{t('web.monitor.thisNode')}</Tag>}
        </Space>
      ),
    },
    { title: t('web.monitor.version'), dataIndex: 'version', key: 'version' },
    { title: t('web.monitor.startedAt'), dataIndex: 'startedAt', key: 'startedAt', render: (v: string) => formatDate(v, t.locale) },
    { title: t('web.monitor.uptime'), dataIndex: 'uptimeSeconds', key: 'uptime', render: (v: number) => humanDuration(v * 1000, t) },
    {
      title: t('web.monitor.load'), dataIndex: 'load', key: 'load',
      render: (v: number[], n) => (v.length ? <Tooltip title={`CPU × ${n.cpus}`}>{v.map((x) => x.toFixed(2)).join(' / ')}</Tooltip> : '—'),
    },
    {
      title: t('web.monitor.lastSeen'), dataIndex: 'lastSeen', key: 'lastSeen',
      render: (v: string, n) => <Tooltip title={formatDate(v, t.locale)}>{t('web.monitor.secondsAgo', { count: n.lastSeenSeconds })}</Tooltip>,
    },
    {
      title: t('web.monitor.roles'), key: 'roles',
      render: (_: unknown, n) => (
        <Space size={4} wrap={false}>
          {n.scheduler && <Tag color="purple">{t('web.monitor.scheduler')}</Tag>}
          <Tag>{t(`web.monitor.modes.${n.tasks}`, { defaultValue: n.tasks })}</Tag>
        </Space>
      ),
    },
  ];

  const checkColumns: ColumnsType<api.Check> = [
    { title: t('web.monitor.check'), dataIndex: 'name', key: 'name', render: (v: string) => t(`web.monitor.checks.${v}`, { defaultValue: v }) },
    {
      title: t('web.monitor.state'), dataIndex: 'state', key: 'state',
      render: (v: api.Check['state'], c) => (
        <Space orientation="vertical" size={0}>
          <Badge status={STATE_BADGE[v]} text={t(`web.monitor.states.${v}`)} />
          {c.error && <Typography.Text type="danger" style={{ fontSize: 12, wordBreak: 'break-word' }}>{c.error}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('web.monitor.time'), dataIndex: 'ms', key: 'ms', align: 'right', render: (v: number | null) => (v === null ? '—' : humanDuration(v, t)) },
  ];

  const q = data?.queues;
  const s = data?.storage;
  return (
    <div className="at-page" data-testid="ops-monitor" style={{ maxWidth: '100%', overflow: 'hidden' }}>
      <PageHead title={t('web.monitor.title')} updatedAt={updatedAt} loading={loading} onRefresh={() => { reload().catch(() => undefined); }} error={error} />
      <Card title={t('web.monitor.nodes')} extra={<Typography.Text type="secondary" className="ops-hint">{t('web.monitor.nodesHint')}</Typography.Text>}
        size="small" style={{ marginBottom: 16 }}>
        <Table<api.NodeInfo> rowKey="node" size="small" columns={nodeColumns} dataSource={data?.nodes || []} loading={!data && !error}
          pagination={false} scroll={{ x: 'max-content' }} onRow={() => ({ 'data-testid': 'ops-node' }) as HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.monitor.noNodes')} /> }} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xxl={10}>
          <Card title={t('web.monitor.readiness')} size="small" data-testid="ops-readiness">
            <Table<api.Check> rowKey="name" size="small" columns={checkColumns} dataSource={data?.readiness || []} loading={!data && !error}
              pagination={false} scroll={{ x: 'max-content' }} />
          </Card>
        </Col>
        <Col xs={24} md={12} xxl={7}>
          <Card title={t('web.monitor.queues')} size="small" data-testid="ops-queues">
            {q && (
              <Descriptions size="small" column={1} bordered styles={LABEL} items={[
                { key: 'mode', label: t('web.monitor.mode'), children: <Tag color={q.mode === 'redis' ? 'red' : 'default'}>{t(`web.monitor.modes.${q.mode}`)}</Tag> },
                ...(q.name ? [{ key: 'name', label: t('web.monitor.queueName'), children: <Typography.Text code>{q.name}</Typography.Text> }] : []),
                { key: 'queued', label: t('web.monitor.queued'), children: count(q.queued) },
                { key: 'running', label: t('web.monitor.running'), children: count(q.running) },
                {
                  key: 'failed', label: t('web.monitor.failed'),
                  children: q.failed ? <Badge status="error" text={count(q.failed)} /> : count(q.failed),
                },
                { key: 'workers', label: t('web.monitor.workers'), children: count(q.workers) },
                ...(q.error ? [{ key: 'error', label: t('web.monitor.error'), children: <Typography.Text type="danger">{q.error}</Typography.Text> }] : []),
              ]} />
            )}
          </Card>
        </Col>
        <Col xs={24} md={12} xxl={7}>
          <Card title={t('web.monitor.storage')} size="small" data-testid="ops-storage">
            {s && (
              <Descriptions size="small" column={1} bordered styles={LABEL} items={[
                { key: 'kind', label: t('web.monitor.kind'), children: t(`web.monitor.kinds.${s.kind}`, { defaultValue: s.kind }) },
                ...(s.kind === 's3'
                  ? [
                    { key: 'bucket', label: t('web.monitor.bucket'), children: <Typography.Text code>{`${s.bucket}${s.prefix ? `/${s.prefix}` : ''}`}</Typography.Text> },
                    ...(s.endpoint ? [{ key: 'endpoint', label: t('web.monitor.endpoint'), children: s.endpoint }] : []),
                  ]
                  : [{ key: 'folder', label: t('web.monitor.folder'), children: <Typography.Text code style={{ wordBreak: 'break-all' }}>{s.folder}</Typography.Text> }]),
                {
                  key: 'reachable', label: t('web.monitor.reachable'),
                  children: <Badge status={s.reachable ? 'success' : 'error'} text={`${s.reachable ? t('web.monitor.yes') : t('web.monitor.no')} · ${humanDuration(s.ms, t)}`} />,
                },
              ]} />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}

export function Monitor() {
  return <SuperAdminOnly><MonitorPage /></SuperAdminOnly>;
}
