import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Card, Col, Empty, Row, Skeleton, Statistic, Tag, Typography } from 'antd';
import { ArrowRightIcon, LoginIcon, StarFilledIcon, ThunderboltIcon, UserIcon } from '../icons';
import { localeText, request, useT } from '@atrium/sdk';
import { useAvatarSrc } from '../components/avatar';
import { avatarText } from '../menus';
import { useStore } from '../store';
import { useSlot, SlotCard } from '../plugins/Slots';
import { menuTitle } from '../layout/titles';

interface DayCount {
  date: string;
  count: number;
}

const STAT_KEYS = ['tenantTotal', 'clickTotal', 'userTotal', 'questionTotal', 'running', 'failed', 'normal', 'formCount'];

function normalizeDays(data: unknown): DayCount[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as any)?.list) ? (data as any).list : Array.isArray((data as any)?.days) ? (data as any).days : [];
  return list.map((d: any) => ({ date: String(d.date ?? d.day ?? d.time ?? ''), count: Number(d.count ?? d.num ?? d.total ?? 0) }));
}

/** Seven-day figures as plain SVG bars (no chart library in the host). */
export function DayBars({ data, color = 'var(--at-primary)', label }: { data: DayCount[]; color?: string; label: string }) {
  if (!data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  const max = Math.max(1, ...data.map((d) => d.count));
  const w = 420;
  const h = 170;
  const bw = w / data.length;
  return (
    <svg viewBox={`0 0 ${w} ${h + 24}`} width="100%" role="img" aria-label={label} style={{ maxHeight: 220 }}>
      {[0.25, 0.5, 0.75, 1].map((f) => (
        <line key={f} x1={0} x2={w} y1={h - f * (h - 20)} y2={h - f * (h - 20)} stroke="currentColor" strokeOpacity={0.08} />
      ))}
      {data.map((d, i) => {
        const bh = (d.count / max) * (h - 20);
        return (
          <g key={d.date || i}>
            <rect x={i * bw + bw * 0.22} y={h - bh} width={bw * 0.56} height={Math.max(bh, 1)} rx={5} fill={color} opacity={0.88}>
              <title>{`${d.date}: ${d.count}`}</title>
            </rect>
            <text x={i * bw + bw / 2} y={h - bh - 6} textAnchor="middle" fontSize="11" fill="currentColor" opacity={0.75}>{d.count}</text>
            <text x={i * bw + bw / 2} y={h + 16} textAnchor="middle" fontSize="11" fill="currentColor" opacity={0.55}>{d.date.slice(5)}</text>
          </g>
        );
      })}
    </svg>
  );
}

export function Home() {
  const t = useT();
  const navigate = useNavigate();
  const user = useStore((s) => s.user);
  const avatar = useAvatarSrc(user);
  const setting = useStore((s) => s.setting);
  const favourites = useStore((s) => s.favourites);
  const index = useStore((s) => s.index);
  const manifest = useStore((s) => s.manifest);
  const cards = useSlot(manifest, 'homeCard');
  // With the tracking plugin its cards draw clicks and visits; the host's own chart of them steps aside.
  const tracked = !!manifest?.plugins?.some((p) => p.name === 'tracking');
  const side = tracked ? 8 : 12;
  const [logins, setLogins] = useState<DayCount[] | null>(null);
  const [behavior, setBehavior] = useState<{ days: DayCount[]; stats: Record<string, number>; mine: boolean } | null>(null);

  useEffect(() => {
    request('base/login-log/user-7day-login-count', { silent: true })
      .then((d) => setLogins(normalizeDays(d)))
      .catch(() => setLogins([]));
    request<any>('base/base-behavior/behavior-total7', { silent: true })
      .then((d) => {
        const stats: Record<string, number> = {};
        if (d && typeof d === 'object' && !Array.isArray(d)) for (const k of STAT_KEYS) if (typeof d[k] === 'number') stats[k] = d[k];
        setBehavior({ days: normalizeDays(d), stats, mine: d?.scope === 'mine' });
      })
      .catch(() => setBehavior({ days: [], stats: {}, mine: true }));
  }, []);

  const hour = new Date().getHours();
  const greeting = hour < 12 ? t('home.morning') : hour < 18 ? t('home.afternoon') : t('home.evening');
  const name = user?.userFullName || '';
  const loginTotal = (logins || []).reduce((a, b) => a + b.count, 0);
  const visitTotal = (behavior?.days || []).reduce((a, b) => a + b.count, 0);
  const today = logins?.length ? logins[logins.length - 1].count : 0;
  const pages = index?.pages.length || 0;
  /** A member without the usage grant sees her own figures, titled as hers. */
  const own = (key: string) => (behavior?.mine ? t(`home.mine.${key}`) : t(`home.${key}`));

  return (
    <div data-testid="home-page">
      <Card variant="borderless" style={{ marginBottom: 16, background: 'linear-gradient(120deg, var(--at-primary), #5a7cf0)', color: '#fff' }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 16, flexWrap: 'wrap' }}>
          <Avatar size={56} src={avatar} style={{ background: 'rgba(255,255,255,.25)', fontSize: 22 }}>
            {avatarText(name)}
          </Avatar>
          <div style={{ flex: 1, minWidth: 200 }}>
            <div style={{ fontSize: 20, fontWeight: 600 }} data-testid="welcome">{greeting}, {name}</div>
            <div style={{ opacity: 0.85, marginTop: 4 }}>
              {user?.tenantName} · {localeText(setting.systemName, setting.systemEnName, t.locale) || t('app.title')} · {new Date().toLocaleDateString(t.locale)}
            </div>
          </div>
          {(user?.isSuperAdmin === 1 || user?.isSuperAdmin === true) && <Tag color="gold">{t('home.superAdmin')}</Tag>}
        </div>
      </Card>
      <Row gutter={[16, 16]}>
        {[
          { key: 'loginTotal', title: own('loginTotal'), value: loginTotal, icon: <LoginIcon /> },
          { key: 'today', title: own('todayLogins'), value: today, icon: <UserIcon /> },
          // a member's own clicks are counted by the tracking plugin's cards when it is on
          ...(tracked && behavior?.mine ? [] : [{ key: 'visitTotal', title: own('clickTotal'), value: behavior?.stats.clickTotal ?? visitTotal, icon: <ThunderboltIcon /> }]),
          { key: 'pages', title: t('home.menuCount'), value: pages, icon: <StarFilledIcon /> },
        ].map((s, _i, all) => (
          <Col key={s.key} xs={12} md={24 / all.length}>
            <Card variant="borderless" data-testid={`stat-${s.key}`}>
              <Statistic title={s.title} value={s.value} prefix={<span style={{ color: 'var(--at-primary)', marginRight: 4 }}>{s.icon}</span>} loading={logins === null} />
            </Card>
          </Col>
        ))}
        {Object.entries(behavior?.stats || {})
          .filter(([k]) => k !== 'clickTotal')
          .map(([k, v]) => (
            <Col key={k} xs={12} md={6}>
              <Card variant="borderless"><Statistic title={t(`home.stats.${k}`)} value={v} /></Card>
            </Col>
          ))}
        {cards.map((c) => (
          <Col key={c.plugin} xs={24} lg={c.span || 12}>
            <SlotCard item={c} />
          </Col>
        ))}
        <Col xs={24} lg={side}>
          <Card variant="borderless" title={own('loginChart')} data-testid="login-chart">
            {logins === null ? <Skeleton active /> : <DayBars data={logins} label={own('loginChart')} />}
          </Card>
        </Col>
        {!tracked && (
          <Col xs={24} lg={12}>
            <Card variant="borderless" title={t('home.visitChart')}>
              {behavior === null ? <Skeleton active /> : <DayBars data={behavior.days} color="#14a05c" label={t('home.visitChart')} />}
            </Card>
          </Col>
        )}
        <Col xs={24} lg={side}>
          <Card variant="borderless" title={t('home.favourites')}>
            {favourites.length ? (
              <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                {favourites.map((f) => {
                  const menu = index?.byId.get(String(f.menuId));
                  return (
                    <Tag key={String(f.favouriteId)} style={{ padding: '4px 10px', cursor: 'pointer', fontSize: 13 }} onClick={() => navigate(`/${f.functionUrl.replace(/^\//, '')}`)}>
                      <StarFilledIcon style={{ color: '#faad14' }} /> {menu ? menuTitle(menu, t.locale) : f.menuName || f.functionUrl}
                    </Tag>
                  );
                })}
              </div>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noFavourites')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={side}>
          <Card variant="borderless" title={t('home.quickAccess')}>
            {(index?.pages || []).slice(0, 8).map((m) => (
              <Typography.Link key={String(m.menuId)} onClick={() => m.path && navigate(m.path)} style={{ display: 'inline-block', width: '50%', padding: '4px 0' }}>
                <ArrowRightIcon style={{ fontSize: 11 }} /> {menuTitle(m, t.locale)}
              </Typography.Link>
            ))}
            {!index?.pages.length && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
