/**
 * The sso plugin's federated module (`./App`): the administrators' screen at /third-party/sso-config (the
 * tenant's sign-in providers and linked identities).
 *
 * The sign-in side of single sign-on (the open routes /sso/login, /authorize, /qrcode..., the sign-in page's
 * QR and "other login" modes, the sign-out rules) stays in the host: those pages are used before anyone is
 * signed in, and a remote is loaded only for a signed-in user's enabled plugins.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';

const ADMIN_PATH = '/third-party/sso-config';

const AdminPage = lazy(() => import('./pages/Admin').then((m) => ({ default: m.SsoAdminPage })));

function Admin() {
  return <Suspense fallback={<Spin />}><AdminPage /></Suspense>;
}

export default definePlugin({
  name: 'sso',
  routes: [{ path: `${ADMIN_PATH}/*`, Component: Admin }],
});
