import type { ManifestPlugin } from '@atrium/sdk';
import { PluginPage } from '../plugins/PluginPage';
import { registerKnownRemotes } from '../plugins/registry';

/** The portal's remote, known without the manifest: public articles open before sign-in. */
const PORTAL: ManifestPlugin = {
  name: 'portal',
  remoteName: 'atrium_portal',
  remoteUrl: '/plugins/portal/remoteEntry.js',
  prefixes: ['/knowledge-details'],
  slots: [],
};

registerKnownRemotes([{ name: PORTAL.remoteName, entry: PORTAL.remoteUrl }]);

/** /knowledge-details without a session (spec 2.1): the portal module's article page without the shell;
 * it reads only articles marked public. */
export function OpenPortal() {
  return (
    <div style={{ minHeight: '100vh', background: 'var(--at-bg)', padding: 24 }} data-testid="open-article">
      <div style={{ maxWidth: 960, margin: '0 auto' }}>
        <PluginPage plugin={PORTAL} prefix="/knowledge-details" />
      </div>
    </div>
  );
}
