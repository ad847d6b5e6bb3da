/**
 * Single sign-on in the host: the open routes of the sign-in flows, the sign-in page's QR and
 * "other login" modes, work-chat browser detection and the logout rules of the user dropdown: what is
 * used before anyone is signed in (or while signing out), when no plugin remote is loaded. The host wires
 * `ssoRoutes` into its router (outside the guard). Pages and modes load on demand (one "sso" chunk); only
 * the small helpers are in the main bundle. The administrators' provider screen is the sso plugin's
 * remote (web-plugins/sso), mounted at the plugin's prefix like every plugin page.
 */
import { lazy, Suspense, type ComponentProps, type ReactElement } from 'react';
import { Spin } from 'antd';

const pages = () => import(/* webpackChunkName: "sso" */ './pages');
const modes = () => import(/* webpackChunkName: "sso" */ './modes');

const SsoLoginPage = lazy(() => pages().then((m) => ({ default: m.SsoLoginPage })));
const MultiLoginPage = lazy(() => pages().then((m) => ({ default: m.MultiLoginPage })));
const AuthorizePage = lazy(() => pages().then((m) => ({ default: m.AuthorizePage })));
const ThirdLoginPage = lazy(() => pages().then((m) => ({ default: m.ThirdLoginPage })));
const QrCodePage = lazy(() => pages().then((m) => ({ default: m.QrCodePage })));
const QrSuccessPage = lazy(() => pages().then((m) => ({ default: m.QrSuccessPage })));
const QrCodeRoute = lazy(() => import(/* webpackChunkName: "signin-modes" */ '../pages/QrCode').then((m) => ({ default: m.QrCodeRoute })));
const QrSuccessRoute = lazy(() => import(/* webpackChunkName: "signin-modes" */ '../pages/QrCode').then((m) => ({ default: m.QrSuccessRoute })));
const WujieBridgePage = lazy(() => pages().then((m) => ({ default: m.WujieBridgePage })));
const ReceiveWxMsgPage = lazy(() => pages().then((m) => ({ default: m.ReceiveWxMsgPage })));
const ProtocolPage = lazy(() => import(/* webpackChunkName: "open" */ '../pages/OpenRoutes').then((m) => ({ default: m.Protocol })));
const LazyQr = lazy(() => modes().then((m) => ({ default: m.QrLoginMode })));
const LazyOther = lazy(() => modes().then((m) => ({ default: m.OtherLoginMode })));

const wait = <div className="at-center" style={{ minHeight: 120 }}><Spin /></div>;

function at(element: ReactElement): ReactElement {
  return <Suspense fallback={wait}>{element}</Suspense>;
}

export interface SsoRoute {
  path: string;
  element: ReactElement;
}

/** Open routes (spec 2.1) owned by single sign-on. */
export const ssoRoutes: SsoRoute[] = [
  { path: '/sso/login', element: at(<SsoLoginPage />) },
  { path: '/sso/multi-login', element: at(<MultiLoginPage />) },
  { path: '/authorize', element: at(<AuthorizePage />) },
  { path: '/third-login', element: at(<ThirdLoginPage />) },
  { path: '/qrcode', element: at(<QrCodeRoute ssoPage={at(<QrCodePage />)} />) },
  { path: '/qrcode-success', element: at(<QrSuccessRoute ssoPage={at(<QrSuccessPage />)} />) },
  { path: '/wujie-bridge', element: at(<WujieBridgePage />) },
  { path: '/platform-protocol', element: at(<ProtocolPage />) },
  { path: '/third-party/receiveWxMsg', element: at(<ReceiveWxMsgPage />) },
];

/** The sign-in page's QR mode (`where`: `whereFrom(query)`). */
export function QrLoginMode(props: ComponentProps<typeof LazyQr>) {
  return at(<LazyQr {...props} />);
}

/** The sign-in page's "other login" mode: a button per redirect provider. */
export function OtherLoginMode(props: ComponentProps<typeof LazyOther>) {
  return at(<LazyOther {...props} />);
}

export { isWorkChatBrowser, workChatKind, type WorkChat } from './browser';
export { completeSignIn, ssoSignOutTarget, userMenuRules } from './signin';
export { loginTypes, whereFrom, type LoginType, type Where } from './api';
