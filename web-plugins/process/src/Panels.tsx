import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Card, Col, Empty, List, Row, Statistic, Tag, Typography } from 'antd';
import { useT } from '@atrium/sdk';
import { processApi, when, type Counts, type InstanceRow, type Page, type TaskRow } from './api';

const BASE = '/process_manage';

function TaskList({ rows }: { rows: TaskRow[] }) {
  const t = useT('process');
  const navigate = useNavigate();
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.empty')} />;
  return (
    <List size="small" dataSource={rows} renderItem={(r) => (
      <List.Item style={{ cursor: 'pointer' }} onClick={() => navigate(`${BASE}?tab=tasks`)} data-testid={`portal-task-${r.taskId}`}
        extra={<Typography.Text type="secondary" style={{ fontSize: 12 }}>{when(r.createdAt)}</Typography.Text>}>
        <Typography.Text ellipsis>{r.name} · {r.modelName}</Typography.Text>
      </List.Item>
    )} />
  );
}

/** The portal's my upcoming / my pending / my process panels (slot `portalPanel`). */
export function PortalPanels() {
  const t = useT('process');
  const navigate = useNavigate();
  const [upcoming, setUpcoming] = useState<Page<TaskRow> | null>(null);
  const [pending, setPending] = useState<Page<TaskRow> | null>(null);
  const [mine, setMine] = useState<Page<InstanceRow> | null>(null);
  useEffect(() => {
    processApi.upcoming(1, 5).then(setUpcoming, () => setUpcoming(null));
    processApi.pending(1, 5).then(setPending, () => setPending(null));
    processApi.mine(1, 5).then(setMine, () => setMine(null));
  }, []);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8}>
        <Card variant="borderless" title={t('web.upcoming')} data-testid="portal-panel-upcoming" extra={upcoming?.total || 0}>
          <TaskList rows={upcoming?.list || []} />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card variant="borderless" title={t('web.pending')} data-testid="portal-panel-pending" extra={pending?.total || 0}>
          <TaskList rows={pending?.list || []} />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card variant="borderless" title={t('web.process')} data-testid="portal-panel-process" extra={mine?.total || 0}>
          {mine?.list.length ? (
            <List size="small" dataSource={mine.list} renderItem={(p) => (
              <List.Item style={{ cursor: 'pointer' }} onClick={() => navigate(`${BASE}/instance/${p.processId}`)}
                extra={<Tag bordered={false}>{t(`web.st_${p.status}`)}</Tag>}>
                <Typography.Text ellipsis>{p.modelName} · {when(p.createdAt)}</Typography.Text>
              </List.Item>
            )} />
          ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.empty')} />}
        </Card>
      </Col>
    </Row>
  );
}

/** The counts as the server answers them: the tenant's instances, or (without the statistics button) "mine":
 * only the instances I started. */
type ScopedCounts = Counts & { scope?: 'tenant' | 'mine' };

/** The home dashboard card: running, failed and normal instances and this week's submissions. */
export function CountsCard() {
  const t = useT('process');
  const [c, setC] = useState<ScopedCounts | null>(null);
  useEffect(() => { (processApi.counts() as Promise<ScopedCounts>).then(setC, () => setC(null)); }, []);
  const max = Math.max(1, ...(c?.weekly || []).map((w) => w.count));
  const mine = c?.scope === 'mine';
  const weekly = mine ? t('web.myWeekly') : t('web.weekly');
  return (
    <div data-testid="home-process-counts" data-scope={c?.scope}>
      {mine && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('web.myCountsTitle')}</Typography.Text>}
      <Row gutter={8}>
        <Col span={6}><Statistic title={t('web.running')} value={c?.running ?? '-'} /></Col>
        <Col span={6}><Statistic title={t('web.failed')} value={c?.failed ?? '-'} valueStyle={{ color: c?.failed ? '#cf1322' : undefined }} /></Col>
        <Col span={6}><Statistic title={t('web.normal')} value={c?.normal ?? '-'} /></Col>
        <Col span={6}><Statistic title={weekly} value={c?.weekTotal ?? '-'} /></Col>
      </Row>
      <div style={{ display: 'flex', alignItems: 'flex-end', gap: 4, height: 48, marginTop: 8 }} aria-label={weekly}>
        {(c?.weekly || []).map((w) => (
          <div key={w.date} title={`${w.date}: ${w.count}`} style={{ flex: 1, background: '#1677ff', opacity: 0.75, height: `${Math.max(2, (w.count / max) * 48)}px` }} />
        ))}
      </div>
    </div>
  );
}

export function CountsTitle() {
  const t = useT('process');
  return <>{t('web.countsTitle')}</>;
}
