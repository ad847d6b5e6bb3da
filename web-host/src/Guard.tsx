import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Spin } from 'antd';
import { REFRESH_COOKIE, bus, isOpenRoute, removeCookie, request, session, useSession } from '@atrium/sdk';
import { bootstrapSession } from './api';
import { store, useStore } from './store';
import { BootError } from './pages/errorPages';

const OpenPortal = lazy(() => import(/* webpackChunkName: "open-portal" */ './pages/OpenPortal').then((m) => ({ default: m.OpenPortal })));

/** The open route (spec 2.1) the guarded tree serves itself: signed in, an article opens in the shell;
 * signed out, the portal module shows it without the shell (public articles only). */
export function isOpenArticle(pathname: string): boolean {
  return isOpenRoute(pathname) && (pathname === '/knowledge-details' || pathname.startsWith('/knowledge-details/'));
}

export function FullPageSpin() {
  return (
    <div className="at-center" style={{ height: '100vh' }}>
      <Spin size="large" />
    </div>
  );
}

/**
 * The token cookie lasts a day, the refresh cookie as long as the server's refresh token: a user back after
 * a day away is renewed with it instead of being sent to sign in again.
 */
async function tryTokenRefresh(): Promise<boolean> {
  const refreshToken = session.getRefreshToken();
  if (!refreshToken) return false;
  try {
    const data = await request<Record<string, any>>('base/base-user/refresh-token', {
      method: 'POST',
      data: { refreshToken },
      silent: true,
      signedOutAnswer: true,
    });
    if (data?.authorization) {
      session.setLifetimes(data);
      session.setTokens(data.authorization, data['refresh-authorization']);
      return true;
    }
  } catch {
    /* spent or ended: forget it and go on to the next way back in */
  }
  removeCookie(REFRESH_COOKIE);
  return false;
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
    const sso = session.sso;
    const canRenew = Boolean(session.getRefreshToken());
    if (canRenew || (sso.domainName && sso.ssoToken && sso.ssoRefreshToken)) {
      setSsoState('trying');
      void tryTokenRefresh()
        .then((ok) => ok || trySsoRefresh())
        .then((ok) => {
          if (!ok) {
            bus.emit('watermark:clear');
            session.setUser(undefined);
          }
          setSsoState(ok ? 'idle' : 'failed');
        });
    } else {
      bus.emit('watermark:clear');
      session.setUser(undefined);
      setSsoState('failed');
    }
  }, [token, urlToken, ssoState]);

  if (urlToken) return <FullPageSpin />;

  if (!token) {
    if (ssoState !== 'failed') return <FullPageSpin />;
    if (isOpenArticle(location.pathname)) return <Suspense fallback={<FullPageSpin />}><OpenPortal /></Suspense>;
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
