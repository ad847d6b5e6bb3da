import type { ManifestPlugin } from '@atrium/sdk';
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
 * session; its pages call only public endpoints with the link's token. */
export function OpenReports() {
  return <PluginPage plugin={REPORTS} prefix="/dynamic-report" />;
}
