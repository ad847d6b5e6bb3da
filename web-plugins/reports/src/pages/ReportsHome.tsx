/** /dynamic-report: the panels the user may view, and the chosen one (`?panelId=`). */
import { Empty, Input, Result, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../api';
import type { PanelDetail } from '../model/types';
import { useRT } from '../i18n';
import { PanelView } from '../panel/PanelView';

interface PanelItem {
  id: string;
  name: string;
}

function OpenPanel({ id }: { id: string }) {
  const { t } = useRT();
  const [panel, setPanel] = useState<PanelDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    setPanel(null);
    setError(null);
    api.panel(id).then((p) => alive && setPanel(p)).catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [id]);
  if (error) return <Result status="warning" title={t('panel.notFound')} subTitle={error} />;
  if (!panel) return <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>;
  return <PanelView key={panel.id} panel={panel} signedIn />;
}

export default function ReportsHome() {
  const { t } = useRT();
  const location = useLocation();
  const navigate = useNavigate();
  const current = new URLSearchParams(location.search).get('panelId') || '';
  const [panels, setPanels] = useState<PanelItem[] | null>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    api.panels().then((l) => setPanels(Array.isArray(l) ? l : [])).catch(() => setPanels([]));
  }, []);
  const shown = useMemo(() => (panels || []).filter((p) => !filter || p.name.toLowerCase().includes(filter.toLowerCase())), [panels, filter]);
  const open = (id: string) => navigate(`${location.pathname}?panelId=${encodeURIComponent(id)}`);
  return (
    <div className="rpt-home" data-testid="reports-home" style={{ display: 'flex', gap: 12, minHeight: '100%', padding: 12, boxSizing: 'border-box' }}>
      <aside style={{ width: 220, flex: 'none', background: 'var(--at-panel, #fff)', borderRadius: 8, padding: 8, alignSelf: 'flex-start' }}>
        <div style={{ fontWeight: 600, padding: '4px 6px 8px' }}>{t('panels')}</div>
        <Input size="small" allowClear placeholder={t('filter.search')} value={filter} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 8 }} />
        {panels === null ? <Spin size="small" /> : !shown.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noPanels')} /> : (
          <nav data-testid="panel-list">
            {shown.map((p) => (
              <a
                key={p.id}
                data-panel-id={p.id}
                onClick={() => open(p.id)}
                style={{ display: 'block', padding: '6px 8px', borderRadius: 6, color: 'inherit', background: p.id === current ? 'rgba(32,75,227,.1)' : undefined, fontWeight: p.id === current ? 600 : 400 }}
              >
                {p.name}
              </a>
            ))}
          </nav>
        )}
      </aside>
      <main style={{ flex: 1, minWidth: 0 }}>
        {current ? <OpenPanel id={current} /> : <Empty style={{ marginTop: 80 }} description={t('choosePanel')} />}
      </main>
    </div>
  );
}
