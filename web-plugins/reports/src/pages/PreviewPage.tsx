/** /dynamic-report/preview/{panelId}: one panel, full width, for a signed-in user. */
import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { api } from '../api';
import type { PanelDetail } from '../model/types';
import { useRT } from '../i18n';
import { PanelView } from '../panel/PanelView';
import { useJumpTrack } from './usePanelTrack';

export default function PreviewPage() {
  const { t } = useRT();
  const location = useLocation();
  const panelId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  const [panel, setPanel] = useState<PanelDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const track = useJumpTrack(panelId, undefined);
  useEffect(() => {
    let alive = true;
    setPanel(null);
    api.panel(panelId).then((p) => alive && setPanel(p)).catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [panelId]);
  if (error) return <Result status="warning" title={t('panel.notFound')} subTitle={error} />;
  if (!panel || track === null) return <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>;
  return (
    <div data-testid="preview-page" style={{ minHeight: '100%' }}>
      <PanelView panel={panel} signedIn track={track} />
    </div>
  );
}
