/** /dynamic-report: the panels the user may view, and the chosen one (`?panelId=`); managers design them,
 * administrators and holders of the `dyreport:manage` button create them. */
import { App, Button, Empty, Input, Modal, Result, Spin, Tag, Tooltip } from 'antd';
import { appPath, bus, useHasButton, useSession } from '@atrium/sdk';
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useRT } from '../i18n';
import { PanelView } from '../panel/PanelView';
import { openPanel, prefetchPanel, type OpenedPanel } from '../panel/opening';
import { pageIdle } from '../charts/drawQueue';
import { designerApi } from '../designer/panel/api';
import { useDsT } from '../designer/panel/i18n';
import type { PanelListItem } from '../designer/panel/types';

type PanelItem = PanelListItem;

const manages = (p: PanelItem) => String(p.privileges || '').split(',').includes('manage');
/** A panel viewers see nothing of yet: never published (older servers do not say: taken as live). */
const neverPublished = (p: PanelItem) => p.live === false;
const truthy = (v: unknown) => v === true || v === 1 || v === '1';
export const designPath = (id: string) => `/dynamic-report/design/${encodeURIComponent(id)}`;

/** A name, then panel/save with nothing on it, then the designer. */
function NewPanel({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (!name.trim()) return;
    setBusy(true);
    try {
      const panel = await designerApi.createPanel(name.trim());
      setOpen(false);
      onCreated(panel.id);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button type="primary" size="small" block data-testid="reports-new-panel" onClick={() => setOpen(true)} style={{ marginBottom: 8 }}>{t('home.newPanel')}</Button>
      <Modal
        open={open}
        title={t('home.newPanel')}
        okText={t('home.create')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        okButtonProps={{ disabled: !name.trim(), 'data-testid': 'new-panel-create' }}
        onOk={() => void create()}
        onCancel={() => setOpen(false)}
        afterClose={() => setName('')}
        destroyOnHidden
      >
        <Input data-testid="new-panel-name" autoFocus maxLength={100} placeholder={t('home.panelName')} value={name} onChange={(e) => setName(e.target.value)} onPressEnter={() => void create()} />
      </Modal>
    </>
  );
}

/** The panel of the list's choice; `onShown` once its first data is there and the views in the window are
 * drawn (or it failed to open). */
function OpenPanel({ id, onShown }: { id: string; onShown?: () => void }) {
  const { t } = useRT();
  const [opened, setOpened] = useState<OpenedPanel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = useEffectEvent(() => onShown?.());
  useEffect(() => {
    let alive = true;
    setOpened(null);
    setError(null);
    openPanel(id)
      .then((o) => {
        if (alive) setOpened(o);
        return o.store.calls.settled().then(pageIdle);
      })
      .catch((e: Error) => {
        if (alive) setError(e.message);
      })
      .finally(() => {
        if (alive) shown();
      });
    return () => {
      alive = false;
    };
  }, [id]);
  if (error) return <Result status="warning" title={t('panel.notFound')} subTitle={error} />;
  if (!opened) return <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>;
  return <PanelView key={opened.panel.id} panel={opened.panel} started={opened.store} signedIn />;
}

export default function ReportsHome() {
  const { t } = useRT();
  const { t: dt } = useDsT();
  const { profile } = useSession();
  const isAdmin = truthy(profile.isAdmin) || truthy(profile.isSuperAdmin);
  const mayCreate = useHasButton('dyreport:manage') || isAdmin;
  const location = useLocation();
  const navigate = useNavigate();
  // The panel clicked opens at once; the address follows once it is drawn. A change of address re-renders the
  // whole shell around the page, which would otherwise compete with the panel's first drawing.
  const [clicked, setClicked] = useState<{ id: string; from: string } | null>(null);
  const addressed = new URLSearchParams(location.search).get('panelId') || '';
  const current = clicked && clicked.from === location.search ? clicked.id : addressed;
  useEffect(() => {
    if (clicked && clicked.from !== location.search) setClicked(null);
  }, [clicked, location.search]);
  const followClick = () => {
    if (!clicked || clicked.id !== current) return;
    // not when the user went on elsewhere meanwhile (this page stays alive in its tab)
    if (appPath(window.location.pathname) !== location.pathname || window.location.search !== clicked.from) return;
    navigate(`${location.pathname}?panelId=${encodeURIComponent(clicked.id)}`);
  };
  const [panels, setPanels] = useState<PanelItem[] | null>(null);
  const [filter, setFilter] = useState('');
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    let alive = true;
    designerApi.panels().then((l) => alive && setPanels(Array.isArray(l) ? l : [])).catch(() => alive && setPanels((was) => was || []));
    return () => {
      alive = false;
    };
  }, [epoch]);
  // The page stays alive in its tab: coming back to it (from the designer, or another tab) reads the list
  // again, so panels created, renamed or published meanwhile show.
  const here = location.pathname;
  useEffect(() => {
    let last = here;
    return bus.on<{ path?: string }>('route:changed', (e) => {
      const path = e?.path || '';
      if (path === here && last !== here) setEpoch((n) => n + 1);
      last = path;
    });
  }, [here]);
  const shown = useMemo(() => (panels || []).filter((p) => !filter || p.name.toLowerCase().includes(filter.toLowerCase())), [panels, filter]);
  const open = (id: string) => {
    // the panel's definition and data are asked for with the click, not after the page has rendered
    if (id === current) return;
    prefetchPanel(id);
    setClicked({ id, from: location.search });
  };
  return (
    <div className="rpt-home" data-testid="reports-home" style={{ display: 'flex', gap: 12, minHeight: '100%', padding: 12, boxSizing: 'border-box' }}>
      <aside style={{ width: 220, flex: 'none', background: 'var(--at-panel, #fff)', borderRadius: 8, padding: 8, alignSelf: 'flex-start' }}>
        <div style={{ fontWeight: 600, padding: '4px 6px 8px' }}>{t('panels')}</div>
        {mayCreate && <NewPanel onCreated={(id) => navigate(designPath(id))} />}
        <Input size="small" allowClear placeholder={t('filter.search')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 8 }} />
        {panels === null ? <Spin size="small" /> : !shown.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noPanels')} /> : (
          <nav data-testid="panel-list">
            {shown.map((p) => (
              <div key={p.id} style={{ display: 'flex', alignItems: 'center', gap: 4, borderRadius: 6, background: p.id === current ? 'rgba(32,75,227,.1)' : undefined }}>
                <a
                  data-panel-id={p.id}
                  onClick={() => open(p.id)}
                  style={{ flex: 1, minWidth: 0, display: 'block', padding: '6px 8px', color: 'inherit', fontWeight: p.id === current ? 600 : 400, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {p.name}
                </a>
                {manages(p) && (p.hasUnpublished || neverPublished(p)) && (
                  <Tooltip title={dt(neverPublished(p) ? 'home.neverPublishedHint' : 'home.unpublishedHint')}>
                    <Tag
                      color={neverPublished(p) ? undefined : 'blue'}
                      data-testid={`panel-unpublished-${p.id}`}
                      data-state={neverPublished(p) ? 'draft' : 'unpublished'}
                      style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}
                    >
                      {dt(neverPublished(p) ? 'home.draft' : 'home.unpublished')}
                    </Tag>
                  </Tooltip>
                )}
                {manages(p) && (
                  <Button size="small" type="link" data-testid={`panel-design-${p.id}`} onClick={() => navigate(designPath(p.id))} style={{ paddingInline: 4 }}>{dt('home.design')}</Button>
                )}
              </div>
            ))}
          </nav>
        )}
      </aside>
      <main style={{ flex: 1, minWidth: 0 }}>
        {current ? <OpenPanel id={current} onShown={followClick} /> : <Empty style={{ marginTop: 80 }} description={t('choosePanel')} />}
      </main>
    </div>
  );
}
