import { Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, Route, Routes, unstable_HistoryRouter as HistoryRouter, useNavigate } from 'react-router';
import { App as AntApp, ConfigProvider, theme as antdTheme } from 'antd';
import { basePath, configureRequest, session, useT } from '@atrium/sdk';
import { useStore } from './store';
import { useAntdLocale } from './locale';
import { setCssVars } from './styles';
import { accessibleTheme, focusRingColor } from './theme';
import { Guard } from './Guard';
import { NotFound } from './pages/errorPages';
import { loadLayout, loadedLayout } from './layout/load';
import { FullPageSpin } from './Guard';
import { ssoRoutes } from './sso';
import { shellHistory } from './layout/routeTabs';

// Pages that the first screen after sign-in does not need are downloaded when they open.
const Login = lazy(() => import(/* webpackChunkName: "login" */ './pages/Login').then((m) => ({ default: m.Login })));
const Portal = lazy(() => import(/* webpackChunkName: "portal" */ './pages/Portal').then((m) => ({ default: m.Portal })));
const OpenRoute = lazy(() => import(/* webpackChunkName: "open" */ './pages/OpenRoutes').then((m) => ({ default: m.OpenRoute })));
const MainLayout = lazy(() => loadLayout().then((m) => ({ default: m.MainLayout })));
const Register = lazy(() => import(/* webpackChunkName: "register" */ './pages/Register').then((m) => ({ default: m.Register })));
const ForgotPassword = lazy(() => import(/* webpackChunkName: "register" */ './pages/Register').then((m) => ({ default: m.ForgotPassword })));
const OpenReports = lazy(() => import(/* webpackChunkName: "open-reports" */ './pages/OpenReports').then((m) => ({ default: m.OpenReports })));
const PanelPreview = lazy(() => import(/* webpackChunkName: "open-reports" */ './pages/OpenReports').then((m) => ({ default: m.PanelPreview })));

// A signed-in visit needs the layout: its download starts now, beside the session's first requests.
if (session.isLoggedIn()) void loadLayout();

/** /grid-layout (spec 2.2): a top-level page outside the shell whose purpose the spec does not show; an
 * empty full-page grid container for a signed-in user. */
function GridLayout() {
  return <div className="at-grid-layout" data-testid="grid-layout" style={{ minHeight: '100vh', display: 'grid', background: 'var(--at-bg)' }} />;
}

function L({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageSpin />}>{children}</Suspense>;
}

/** The signed-in shell: the layout itself when its chunk is already here (it usually is by the time the
 * session has loaded), its lazy form otherwise. The choice is kept for as long as the shell stays: switching
 * forms later would mount the layout afresh and lose every open tab's page. */
function Shell() {
  const [layout] = useState(loadedLayout);
  if (layout) return <layout.MainLayout />;
  return <L><MainLayout /></L>;
}

/** Connects the SDK's request client to antd's message API and the router. */
function RequestBridge() {
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    configureRequest({
      notify: (type, text) => {
        message.open({ type, content: text, key: `req-${type}-${text}` });
      },
      navigate: (path) => navigate(path),
    });
  }, [message, navigate]);
  return null;
}

function TitleSync() {
  const t = useT();
  const setting = useStore((s) => s.setting);
  useEffect(() => {
    const title = setting.systemTitle || setting.systemName || t('app.title');
    if (title) document.title = title;
    if (setting.iconUrl) {
      const link = document.getElementById('atrium-favicon') as HTMLLinkElement | null;
      if (link) link.href = setting.iconUrl;
    }
  }, [setting, t]);
  return null;
}

export function Root() {
  const themeSettings = useStore((s) => s.theme);
  const configured = useStore((s) => s.flags.configuredColor);
  const locale = useAntdLocale();
  const dark = themeSettings.style === 'dark';
  const primary = configured || themeSettings.themeColor;

  useEffect(() => {
    setCssVars({
      '--at-primary': primary,
      '--at-bg': dark ? '#0d111a' : '#f3f5f9',
      '--at-panel': dark ? '#161c28' : '#ffffff',
      '--at-sider-bg': dark ? '#121825' : themeSettings.style === 'one-stop' ? '#f7f9fd' : '#ffffff',
      '--at-border': dark ? '#263043' : '#e8ecf3',
      '--at-text': dark ? '#e6e9f0' : '#1f2533',
      '--at-muted': dark ? '#8d97ab' : '#6b7489',
      '--at-focus': focusRingColor(primary, dark),
    });
    document.body.style.background = dark ? '#0d111a' : '#f3f5f9';
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', primary);
  }, [primary, dark, themeSettings.style]);

  const theme = useMemo(() => {
    // text, link, error and tag colours at WCAG 2.1 AA contrast, inherited by every remote
    const readable = accessibleTheme(primary, dark);
    return {
      algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
      token: { colorPrimary: primary, borderRadius: 8, fontSize: 14, ...readable.token },
      components: { Layout: { headerHeight: 56 }, Menu: { itemBorderRadius: 8, itemMarginInline: 8 }, Tag: readable.tag },
    };
  }, [dark, primary]);

  return (
    <ConfigProvider theme={theme} locale={locale}>
      <AntApp style={{ height: '100%' }}>
        <HistoryRouter history={shellHistory} basename={basePath() || undefined}>
          <RequestBridge />
          <TitleSync />
          <Routes>
            <Route path="/login" element={<L><Login /></L>} />
            <Route path="/register" element={<L><Register /></L>} />
            <Route path="/forgot-password" element={<L><ForgotPassword /></L>} />
            {ssoRoutes.map((r) => <Route key={r.path} path={r.path} element={r.element} />)}
            <Route path="/midea-login" element={<L><OpenRoute /></L>} />
            {['/dynamic-report/link/*', '/report/preview', '/report/preview/*'].map((p) => (
              <Route key={p} path={p} element={<L><OpenReports /></L>} />
            ))}
            <Route path="/" element={<Navigate to="/portal" replace />} />
            <Route path="/404" element={<NotFound standalone />} />
            <Route element={<Guard />}>
              <Route path="/portal" element={<L><Portal /></L>} />
              <Route path="/portal/news" element={<L><Portal /></L>} />
              {/* a panel preview: the reports module without the shell, as a shared link, for a signed-in user */}
              <Route path="/dynamic-report/preview/*" element={<L><PanelPreview /></L>} />
              <Route path="/dynamic-report/preview" element={<L><PanelPreview /></L>} />
              <Route path="/grid-layout" element={<GridLayout />} />
              <Route path="*" element={<Shell />} />
            </Route>
          </Routes>
        </HistoryRouter>
      </AntApp>
    </ConfigProvider>
  );
}
