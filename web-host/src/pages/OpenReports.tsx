import { useLocation } from 'react-router';
import { Result } from 'antd';
import { useT, type ManifestPlugin } from '@atrium/sdk';
import { previewPanelId } from '../links';
import { PluginPage } from '../plugins/PluginPage';
import { registerKnownRemotes } from '../plugins/registry';

/** The report viewer's remote, known without the manifest: shared links open before sign-in. */
const REPORTS: ManifestPlugin = {
  name: 'reports',
  remoteName: 'atrium_reports',
  remoteUrl: '/plugins/reports/remoteEntry.js',
  prefixes: ['/dynamic-report', '/report/preview'],
  slots: [],
};

registerKnownRemotes([{ name: REPORTS.remoteName, entry: REPORTS.remoteUrl }]);

/** Shared report links (/dynamic-report/link/*, /report/preview): the reports module without layout or
 * session; its pages call only public endpoints with the link's token. Panel previews
 * (/dynamic-report/preview/*) use the same layout behind the guard: they need a session. */
export function OpenReports() {
  return <PluginPage plugin={REPORTS} prefix="/dynamic-report" />;
}

/** /dynamic-report/preview/{panelId} for a signed-in user: the reports module without the shell; an
 * address that names no panel gets the stock 'no dashboard specified for the jump' message. */
export function PanelPreview() {
  const t = useT();
  const { pathname } = useLocation();
  if (!previewPanelId(pathname)) {
    return (
      <div className="at-center" style={{ height: '100vh' }} data-testid="no-dashboard">
        <Result status="warning" title={t('error.noDashboard')} />
      </div>
    );
  }
  return <OpenReports />;
}
