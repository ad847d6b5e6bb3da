import { useEffect, useMemo, useState } from 'react';
import { Card, Col, Empty, Row, Skeleton, Statistic, Tag } from 'antd';
import { request, useT } from '@atrium/sdk';
import { Chart } from './Chart';
import { BackgroundJobsCard, type RunStates } from './RunStates';

interface Series { date: string; loads: number; visits: number; clicks: number; users: number }
/** Whose usage the figures count: the platform, the tenant, or (without the statistics button) only mine. */
type Scope = 'platform' | 'tenant' | 'mine';
interface Summary {
  scope: Scope;
  clickTotal: number; visitTotal: number; loadTotal: number; activeUsers: number; activeTenants: number;
  series: Series[];
}
interface Ranked { name: string; count: number }
interface DayCount { date: string; count: number }

interface Data {
  week: Summary;
  month: Summary;
  tenants: Ranked[];
  menus: Ranked[];
  users: Ranked[];
  logins: DayCount[];
  runStates: RunStates | null;
}

async function load(): Promise<Data> {
  const get = <T,>(path: string, params?: Record<string, unknown>) => request<T>(path, { params, silent: true });
  const [week, month, tenants, menus, users, logins, runStates] = await Promise.all([
    get<Summary>('log/dashboard/summary', { days: 7 }),
    get<Summary>('log/dashboard/summary', { days: 30 }),
    get<{ tenantName: string; count: number }[]>('log/dashboard/top-tenants', { days: 30 }),
    get<{ name: string; count: number }[]>('log/dashboard/top-menus', { days: 30 }),
    get<{ userName: string; count: number }[]>('log/dashboard/top-users', { days: 30 }),
    get<DayCount[]>('base/login-log/user-7day-login-count').catch(() => [] as DayCount[]),
    get<RunStates>('log/dashboard/run-states').catch(() => null),
  ]);
  return {
    week, month,
    tenants: tenants.map((x) => ({ name: x.tenantName, count: x.count })),
    menus: menus.map((x) => ({ name: x.name, count: x.count })),
    users: users.map((x) => ({ name: x.userName, count: x.count })),
    logins: Array.isArray(logins) ? logins : [],
    runStates,
  };
}

function barOption(items: Ranked[], color: string) {
  const rows = [...items].reverse();
  return {
    grid: { left: 8, right: 32, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', splitLine: { lineStyle: { opacity: 0.3 } } },
    yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { width: 110, overflow: 'truncate' } },
    series: [{ type: 'bar', data: rows.map((r) => r.count), itemStyle: { color, borderRadius: [0, 4, 4, 0] }, label: { show: true, position: 'right' } }],
  };
}

function RankCard({ title, items, color, testId, empty }: { title: string; items: Ranked[]; color: string; testId: string; empty: string }) {
  const option = useMemo(() => barOption(items, color), [items, color]);
  return (
    <Card variant="borderless" title={title} data-testid={testId}>
      {items.length ? (
        <>
          <Chart option={option} label={title} height={Math.max(160, items.length * 28)} />
          <ol className="at-tracking-list" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
            {items.map((i) => <li key={i.name}>{`${i.name}: ${i.count}`}</li>)}
          </ol>
        </>
      ) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />}
    </Card>
  );
}

/** The usage cards of the home dashboard: totals, top tenants, menus and users, visits and sign-ins. */
export function HomeCards() {
  const t = useT('tracking');
  const [data, setData] = useState<Data | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    load().then(setData).catch(() => setFailed(true));
  }, []);

  const mine = data?.week.scope === 'mine';
  const trend = useMemo(() => data && {
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    legend: { data: [t('web.visits'), t('web.clicks')] },
    xAxis: { type: 'category', data: data.month.series.map((s) => s.date.slice(5)) },
    yAxis: { type: 'value' },
    series: [
      { name: t('web.visits'), type: 'line', smooth: true, areaStyle: { opacity: 0.15 }, data: data.month.series.map((s) => s.visits) },
      { name: t('web.clicks'), type: 'line', smooth: true, data: data.month.series.map((s) => s.clicks) },
    ],
  }, [data, t]);

  // the sign-in counts come from the platform for the whole tenant: a member seeing only her own usage gets
  // her own visits and clicks here instead
  const visits = useMemo(() => data && (data.week.scope === 'mine' ? {
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    legend: { data: [t('web.visits'), t('web.clicks')] },
    xAxis: { type: 'category', data: data.week.series.map((s) => s.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t('web.visits'), type: 'bar', itemStyle: { borderRadius: [4, 4, 0, 0] }, data: data.week.series.map((s) => s.visits) },
      { name: t('web.clicks'), type: 'line', smooth: true, data: data.week.series.map((s) => s.clicks) },
    ],
  } : {
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    legend: { data: [t('web.logins'), t('web.visitors')] },
    xAxis: { type: 'category', data: data.week.series.map((s) => s.date.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t('web.logins'), type: 'bar', itemStyle: { borderRadius: [4, 4, 0, 0] }, data: data.week.series.map((s) => data.logins.find((l) => l.date === s.date)?.count ?? 0) },
      { name: t('web.visitors'), type: 'line', smooth: true, data: data.week.series.map((s) => s.users) },
    ],
  }), [data, t]);

  if (failed) return null;
  if (!data) return <Card variant="borderless"><Skeleton active /></Card>;
  const scope = mine ? t('web.scopeMine') : data.week.scope === 'platform' ? t('web.scopePlatform') : t('web.scopeTenant');
  // a member's own figures say so in their titles; how many users were active is not hers to see
  const stats = mine ? [
    { key: 'clickTotal', title: t('web.myClickTotal'), value: data.week.clickTotal },
    { key: 'visitTotal', title: t('web.myVisitTotal'), value: data.week.visitTotal },
    { key: 'loadTotal', title: t('web.myLoadTotal'), value: data.week.loadTotal },
  ] : [
    { key: 'clickTotal', title: t('web.clickTotal'), value: data.week.clickTotal },
    { key: 'visitTotal', title: t('web.visitTotal'), value: data.week.visitTotal },
    { key: 'activeUsers', title: t('web.activeUsers'), value: data.week.activeUsers },
    { key: 'loadTotal', title: t('web.loadTotal'), value: data.week.loadTotal },
  ];
  const visitTitle = mine ? t('web.myVisitAnalysis') : t('web.visitAnalysis');
  const trendTitle = mine ? t('web.myTrend') : t('web.trend');
  return (
    <div data-testid="tracking-cards">
      <Row gutter={[16, 16]}>
        {stats.map((s) => (
          <Col key={s.key} xs={12} md={mine ? 8 : 6}>
            <Card variant="borderless" data-testid={`tracking-${s.key}`}>
              <Statistic title={<>{s.title} <Tag bordered={false}>{scope}</Tag></>} value={s.value} />
            </Card>
          </Col>
        ))}
        {data.runStates?.counts === 'jobs' && (
          <Col xs={24} lg={12}>
            <BackgroundJobsCard states={data.runStates} />
          </Col>
        )}
        <Col xs={24} lg={12}>
          <Card variant="borderless" title={visitTitle} data-testid="tracking-visit-analysis">
            {visits && <Chart option={visits} label={visitTitle} />}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card variant="borderless" title={trendTitle} data-testid="tracking-trend">
            {trend && <Chart option={trend} label={trendTitle} />}
          </Card>
        </Col>
        {/* ranking tenants or users means nothing when only my own usage is counted */}
        {!mine && (
          <Col xs={24} lg={8}>
            <RankCard title={t('web.topTenants')} items={data.tenants} color="#7b61ff" testId="tracking-top-tenants" empty={t('web.empty')} />
          </Col>
        )}
        <Col xs={24} lg={mine ? 24 : 8}>
          <RankCard title={mine ? t('web.myTopMenus') : t('web.topMenus')} items={data.menus} color="#204be3" testId="tracking-top-menus" empty={t('web.empty')} />
        </Col>
        {!mine && (
          <Col xs={24} lg={8}>
            <RankCard title={t('web.topUsers')} items={data.users} color="#14a05c" testId="tracking-top-users" empty={t('web.empty')} />
          </Col>
        )}
      </Row>
    </div>
  );
}
