import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Spin } from 'antd';
import { bus, request, session, useSession } from '@atrium/sdk';
import { bootstrapSession } from './api';
import { store, useStore } from './store';
import { BootError } from './pages/errorPages';

export function FullPageSpin() {
  return (
    <div className="at-center" style={{ height: '100vh' }}>
      <Spin size="large" />
    </div>
  );
}

/** Cloud-identity refresh: with a stored domain and sso tokens, ask the server for a new session. */
async function trySsoRefresh(): Promise<boolean> {
  const sso = session.sso;
  if (!(sso.domainName && sso.ssoToken && sso.ssoRefreshToken)) return false;
  try {
    const data = await request<Record<string, any>>('base/sso/token', {
      params: { domainName: sso.domainName, ssoToken: sso.ssoToken, ssoRefreshToken: sso.ssoRefreshToken },
      silent: true,
    });
    if (data?.authorization) {
      session.signIn(data);
      // The provider renews its tokens too: keep the new ones, as a first single sign-on does.
      const renewed = {
        domainName: data.domainName, ssoToken: data.ssoToken, ssoRefreshToken: data.ssoRefreshToken,
        portalType: data.portalType, ssoType: data.ssoType, urlLogin: data.urlLogin, urlLogout: data.urlLogout,
        portalCode: data.portalCode,
      };
      session.setSso(Object.fromEntries(Object.entries(renewed).filter(([, v]) => v)));
      return true;
    }
  } catch {
    /* fall through to the login page */
  }
  session.clearSsoTokens();
  return false;
}

/** The navigation guard (spec 4). */
export function Guard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { token } = useSession();
  const ready = useStore((s) => s.ready);
  const bootError = useStore((s) => s.bootError);
  const loading = useRef(false);
  const [ssoState, setSsoState] = useState<'idle' | 'trying' | 'failed'>('idle');
  const params = new URLSearchParams(location.search);
  const urlToken = params.get('token') || params.get('authorization');

  // A token handed over in the URL (another system, a workplace-chat or redirect login).
  useEffect(() => {
    if (!urlToken) return;
    const next = new URLSearchParams(location.search);
    session.setTokens(urlToken, next.get('refreshToken') || next.get('refresh-authorization'));
    for (const k of ['token', 'authorization', 'refreshToken', 'refresh-authorization']) next.delete(k);
    const search = next.toString();
    navigate(`${location.pathname}${search ? `?${search}` : ''}`, { replace: true });
  }, [urlToken, location.pathname, location.search, navigate]);

  useEffect(() => {
    if (!token || ready || loading.current) return;
    loading.current = true;
    bootstrapSession()
      .catch((err: Error & { code?: number }) => {
        if (err?.code !== -1) store.set({ bootError: err?.message || 'error' });
      })
      .finally(() => {
        loading.current = false;
      });
  }, [token, ready]);

  useEffect(() => {
    if (token || urlToken || ssoState !== 'idle') return;
    bus.emit('watermark:clear');
    session.setUser(undefined);
    const sso = session.sso;
    if (sso.domainName && sso.ssoToken && sso.ssoRefreshToken) {
      setSsoState('trying');
      void trySsoRefresh().then((ok) => setSsoState(ok ? 'idle' : 'failed'));
    } else {
      setSsoState('failed');
    }
  }, [token, urlToken, ssoState]);

  if (urlToken) return <FullPageSpin />;

  if (!token) {
    if (ssoState !== 'failed') return <FullPageSpin />;
    const here = location.pathname + location.search;
    if (location.pathname !== '/portal') session.rememberRedirect(here);
    return <Navigate to="/login" replace />;
  }
  if (!ready) {
    if (bootError) {
      return <BootError message={bootError} onRetry={() => store.set({ bootError: undefined, ready: false })} />;
    }
    return <FullPageSpin />;
  }
  return <Outlet />;
}
