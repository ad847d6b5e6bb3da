import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Avatar, Button, Card, Col, Empty, Row, Typography } from 'antd';
import { AppstoreIcon, ArrowRightIcon, StarFilledIcon } from '../icons';
import { appUrl, localeText, request, session, useT } from '@atrium/sdk';
import { switchSystem } from '../api';
import { avatarText } from '../menus';
import { useStore } from '../store';
import { Logo } from '../components/Logo';
import { useSlot, SlotCard } from '../plugins/Slots';

interface SystemItem {
  systemCode: string;
  systemName: string;
  systemEnName?: string;
  iconUrl?: string;
  requestUrl?: string;
  useState?: number | string;
}

/** The portal page: application entrance, quick navigation and the plugins' portal panels. */
export function Portal() {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const user = useStore((s) => s.user);
  const setting = useStore((s) => s.setting);
  const favourites = useStore((s) => s.favourites);
  const manifest = useStore((s) => s.manifest);
  const panels = useSlot(manifest, 'portalPanel');
  const [systems, setSystems] = useState<SystemItem[]>([]);
  useEffect(() => {
    request<SystemItem[]>('base/base-tenant-system/find-user-system', { method: 'POST', data: {}, silent: true })
      .then((l) => setSystems(Array.isArray(l) ? l : []))
      .catch(() => setSystems([]));
  }, []);
  const enter = async (s: SystemItem) => {
    if (String(s.useState) !== '1') return void message.error(t('navbar.systemForbidden'));
    if (!s.requestUrl) return void message.warning(t('navbar.systemNotOpen'));
    if (s.systemCode !== session.getSystemCode()) await switchSystem(s.systemCode).catch(() => undefined);
    navigate('/home');
  };
  const title = localeText(setting.systemTitle || setting.systemName, setting.systemEnName, t.locale) || t('app.title');
  return (
    <div style={{ minHeight: '100vh', background: 'var(--at-bg)' }} data-testid="portal-page">
      <header className="at-navbar" style={{ background: 'var(--at-panel)', color: 'var(--at-text)' }}>
        <div className="at-logo"><Logo src={setting.systemLogo} /><span className="at-logo-title">{title}</span></div>
        <span className="at-spacer" />
        <Button type="primary" onClick={() => navigate('/home')} icon={<ArrowRightIcon />} data-testid="enter-workspace">{t('portal.enter')}</Button>
        <Avatar style={{ background: 'var(--at-primary)', marginLeft: 12 }}>{avatarText(user?.userFullName)}</Avatar>
      </header>
      <div style={{ background: 'linear-gradient(120deg, var(--at-primary), #0c1f66)', color: '#fff', padding: '40px 32px' }}>
        <Typography.Title level={2} style={{ color: '#fff', margin: 0 }}>{t('portal.welcome', { name: user?.userFullName || '' })}</Typography.Title>
        <div style={{ opacity: 0.85, marginTop: 8 }}>{user?.tenantName}</div>
      </div>
      <div style={{ padding: 24, maxWidth: 1280, margin: '0 auto' }}>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={16}>
            <Card title={<><AppstoreIcon /> {t('portal.apps')}</>} variant="borderless">
              <Row gutter={[12, 12]}>
                {systems.map((s) => {
                  // a system that cannot be entered is dimmed: its icon faded, its name in the secondary
                  // text colour (a faded name would fall under 4.5:1)
                  const usable = String(s.useState) === '1' && !!s.requestUrl;
                  return (
                    <Col key={s.systemCode} xs={12} md={8}>
                      <Card hoverable size="small" onClick={() => void enter(s)}>
                        <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
                          <span style={{ display: 'inline-flex', opacity: usable ? 1 : 0.6 }}>
                            {s.iconUrl ? <img src={appUrl(s.iconUrl)} alt="" width={28} height={28} /> : <Avatar shape="square" style={{ background: 'var(--at-primary)' }}>{avatarText(s.systemName)}</Avatar>}
                          </span>
                          <Typography.Text strong ellipsis type={usable ? undefined : 'secondary'}>{localeText(s.systemName, s.systemEnName, t.locale)}</Typography.Text>
                        </div>
                      </Card>
                    </Col>
                  );
                })}
                {!systems.length && <Col span={24}><Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /></Col>}
              </Row>
            </Card>
          </Col>
          <Col xs={24} lg={8}>
            <Card title={<><StarFilledIcon style={{ color: '#faad14' }} /> {t('portal.quickNav')}</>} variant="borderless">
              {favourites.length ? favourites.map((f) => (
                <Typography.Link key={String(f.favouriteId)} onClick={() => navigate(`/${f.functionUrl.replace(/^\//, '')}`)} style={{ display: 'block', padding: '4px 0' }}>
                  {f.menuName || f.functionUrl}
                </Typography.Link>
              )) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noFavourites')} />}
            </Card>
          </Col>
          {panels.map((p) => (
            <Col key={p.plugin} xs={24} lg={p.span || 12}><SlotCard item={p} /></Col>
          ))}
        </Row>
      </div>
    </div>
  );
}
