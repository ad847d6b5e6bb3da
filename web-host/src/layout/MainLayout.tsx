import { Suspense, lazy, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { App } from 'antd';
import {
  HOME_PATH, ShellContext, TAB_TITLE_EVENT, bus, closeTab as closeTabLogic, permissions, setPageContext, tabKey,
  titleTab, useT, type ShellApi, type TabTitle,
} from '@atrium/sdk';
import { loadMenus } from '../api';
import { findMenu } from '../menus';
import { store, useStore } from '../store';
import { Navbar, NavTools } from './Navbar';
import { Sidebar } from './Sidebar';
import { TabStrip } from './TabStrip';
import { locationOf, resolveContent, TabLocation } from './content';
import { HOME_TAB, isMultiTagSearch, onNavigate, openRouteTab } from './routeTabs';
import { menuTitle, tabTitle } from './titles';
import { useDevice } from './useDevice';
import { FullscreenExitButton, isFullscreenQuery, useEscapeLeavesFullscreen, withoutFullscreen } from './fullscreen';
import { useEmbedRoutes } from './embedRoutes';
import { fullscreenSwitch } from '../config';

// Dialogs, drawers and the side toolbar are downloaded the first time they are needed.
// On phones the sidebar is a drawer: antd's Drawer is not downloaded on a desktop.
const MobileSidebar = lazy(() => import(/* webpackChunkName: "mobile" */ './MobileSidebar').then((m) => ({ default: m.MobileSidebar })));
const SideToolbar = lazy(() => import(/* webpackChunkName: "toolbar" */ './SideToolbar').then((m) => ({ default: m.SideToolbar })));
const PasswordModal = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/PasswordModal').then((m) => ({ default: m.PasswordModal })));
const ThemeDrawer = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/ThemeDrawer').then((m) => ({ default: m.ThemeDrawer })));
const FeedbackDialog = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/FeedbackDialog').then((m) => ({ default: m.FeedbackDialog })));
const DefaultSystemDialog = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/DefaultSystemDialog').then((m) => ({ default: m.DefaultSystemDialog })));
const HelpDrawer = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/HelpDrawer').then((m) => ({ default: m.HelpDrawer })));
const ChatPanel = lazy(() => import(/* webpackChunkName: "dialogs" */ '../dialogs/HelpDrawer').then((m) => ({ default: m.ChatPanel })));
import { useSlot, SlotOutlet } from '../plugins/Slots';
import { browserTipDue, browserTipShown } from './browserTip';
import { trackingWhitelist } from './trackingWhitelist';

/** Usage tracking (page visits, marked clicks, remote loads) starts once the first page is drawn; its
 * module is a chunk of its own so that the first page's script does not wait for it. */
function useUsageTracking(): void {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let alive = true;
    const timer = setTimeout(() => {
      void import(/* webpackChunkName: "tracking" */ '@atrium/sdk/tracking').then(({ tracking }) => {
        if (alive) {
          stop = tracking.start({
            enabled: () => !!store.get().flags.tracking,
            whitelist: trackingWhitelist(),
            systemName: () => store.get().setting.systemName || '',
          });
        }
      });
    }, 0);
    return () => {
      alive = false;
      clearTimeout(timer);
      stop?.();
    };
  }, []);
}

function useBrowserCheck() {
  const t = useT();
  const { notification } = App.useApp();
  useEffect(() => {
    if (!browserTipDue(navigator.userAgent)) return;
    browserTipShown();
    notification.warning({ message: t('error.browserTitle'), description: t('error.browser'), duration: 8 });
  }, [notification, t]);
}

export function MainLayout() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  const { locale } = t;
  const index = useStore((s) => s.index);
  const manifest = useStore((s) => s.manifest);
  const tabs = useStore((s) => s.tabs);
  const device = useStore((s) => s.device);
  const fullscreenFlag = useStore((s) => s.fullscreen);
  const theme = useStore((s) => s.theme);
  const chatOpen = useStore((s) => s.chatOpen);
  const defaultMenu = useStore((s) => s.defaultMenu);
  const passwordDialog = useStore((s) => s.passwordDialog);
  const changePasswordOpen = useStore((s) => s.changePasswordOpen);
  const themeDrawer = useStore((s) => s.themeDrawer);
  const feedbackOpen = useStore((s) => s.feedbackOpen);
  const defaultSystemOpen = useStore((s) => s.defaultSystemOpen);
  const helpOpen = useStore((s) => s.helpOpen);
  const overlays = useSlot(manifest, 'overlay');
  useDevice();
  useBrowserCheck();
  useUsageTracking();
  // A plugin's navbar item (the help plugin's button) asks for the help drawer.
  useEffect(() => bus.on('help:open', () => store.set({ helpOpen: true })), []);

  // the page's configuration keeps every page full screen: there is no way out to offer
  const pinnedFullscreen = fullscreenSwitch();
  const fullscreen = isFullscreenQuery(location.search) || fullscreenFlag || pinnedFullscreen;
  const exitFullscreen = useCallback(() => {
    store.set({ fullscreen: false });
    if (isFullscreenQuery(location.search)) navigate(location.pathname + withoutFullscreen(location.search) + location.hash, { replace: true });
  }, [location.pathname, location.search, location.hash, navigate]);
  useEscapeLeavesFullscreen(fullscreen && !pinnedFullscreen, exitFullscreen);
  useEmbedRoutes(navigate);
  const menu = findMenu(index, location.pathname);
  const isMultiTag = isMultiTagSearch(location.search);
  const activeKey = tabKey(location.pathname, location.pathname + location.search, isMultiTag);

  // Fullscreen is switched off on route change.
  const lastPath = useRef(location.pathname);
  useEffect(() => {
    if (lastPath.current !== location.pathname && store.get().fullscreen) store.set({ fullscreen: false });
    lastPath.current = location.pathname;
  }, [location.pathname]);

  // The default page, once after the menus load.
  const openedDefault = useRef(false);
  useEffect(() => {
    if (openedDefault.current) return;
    openedDefault.current = true;
    if (location.pathname === HOME_PATH && defaultMenu?.routePath && defaultMenu.routePath !== HOME_PATH) {
      navigate(defaultMenu.routePath.startsWith('/') ? defaultMenu.routePath : `/${defaultMenu.routePath}`);
    }
  }, [defaultMenu, location.pathname, navigate]);

  // Tabs open as the address changes, before the page renders (see routeTabs); home is always present.
  useLayoutEffect(() => onNavigate((loc) => openRouteTab(loc.pathname, loc.search)), []);

  // A page titles its own tab (an editor under its list's menu: "Edit: <name>").
  useEffect(
    () =>
      bus.on<TabTitle>(TAB_TITLE_EVENT, (payload) => {
        if (payload && typeof payload.path === 'string') store.set((s) => ({ tabs: titleTab(s.tabs, payload) }));
      }),
    [],
  );

  // The first page's tab, and its title once the menus are known.
  useEffect(() => {
    const fullPath = location.pathname + location.search;
    openRouteTab(location.pathname, location.search);
    setPageContext({
      menuId: menu?.menuId,
      requestMenuUrl: menu?.menuUrl || location.pathname,
      pageName: menu ? menuTitle(menu, 'zh-cn') : undefined,
      pageEnName: menu ? menuTitle(menu, 'en-us') : undefined,
    });
    void permissions.activate(menu?.menuId);
    bus.emit('route:changed', { path: location.pathname, fullPath, menuId: menu?.menuId });
  }, [location.pathname, location.search, activeKey, isMultiTag, menu]);

  const closeTab = useCallback(
    (key: string) => {
      const result = closeTabLogic(store.get().tabs, key, activeKey);
      if (result.refused) return;
      store.set({ tabs: result.tabs });
      bus.emit('tab:closed', key);
      if (result.navigateTo) navigate(result.navigateTo);
    },
    [activeKey, navigate],
  );

  const shell = useMemo<ShellApi>(
    () => ({
      navigate: (to) => navigate(to),
      openPage: (to) => navigate(to),
      closeCurrentTab: () => closeTab(activeKey),
      refreshMenus: loadMenus,
      menus: index?.tree || [],
      manifest,
      currentMenu: menu,
      themeColor: store.get().flags.configuredColor || theme.themeColor,
      dark: theme.style === 'dark',
    }),
    [navigate, closeTab, activeKey, index, manifest, menu, theme],
  );

  const mobile = device === 'mobile';
  const sideToolbar = !fullscreen && location.pathname !== HOME_PATH;
  const compact = theme.layout === 'compact';
  const activeTab = tabs.find((x) => x.key === activeKey);
  const pageTitle = activeTab?.pageTitle;
  const activeTitle = tabTitle({ path: location.pathname, title: activeTab?.title || location.pathname, enTitle: activeTab?.enTitle, menuId: menu?.menuId, pageTitle }, index, t, locale);

  const panes = tabs.length ? tabs : [HOME_TAB];
  // A tab's page is drawn when the tab is first shown and kept alive after: landing on a report does not
  // also draw home's cards behind it.
  const shown = useRef(new Set<string>());
  shown.current.add(activeKey);
  const activeLocation = useMemo(() => locationOf(location.pathname + location.search, activeKey), [location.pathname, location.search, activeKey]);

  return (
    <ShellContext.Provider value={shell}>
      <div className={`at-shell${theme.style === 'dark' ? ' at-dark' : ''}`} data-device={device} data-layout={theme.layout}>
        {!fullscreen && <Navbar activeTitle={activeTitle} />}
        <div className="at-body">
          {!fullscreen && !mobile && <Sidebar />}
          {!fullscreen && mobile && (
            <Suspense fallback={null}>
              <MobileSidebar />
            </Suspense>
          )}
          <div className="at-main" style={chatOpen && !mobile ? { flex: '1 1 0', minWidth: 0 } : undefined}>
            {!fullscreen && <TabStrip activeKey={activeKey} closeTab={closeTab} />}
            {/* the page's scroll area, named by the page: focusable, so that the keyboard scrolls it */}
            <main
              className={`at-content${fullscreen ? ' fullscreen' : ''}${sideToolbar ? ' with-toolbar' : ''}`}
              data-testid="main-content"
              id="at-main-area"
              tabIndex={0}
              aria-label={activeTitle || undefined}
            >
              {panes.map((tab) => {
                const active = tab.key === activeKey;
                if (!active && (tab.noCache || !shown.current.has(tab.key))) return null;
                return (
                  <div key={tab.key} className="at-tab-pane" hidden={!active} data-tab={tab.key}>
                    <TabLocation location={active ? activeLocation : locationOf(tab.fullPath, tab.key)}>
                      {resolveContent(tab.path, manifest, index)}
                    </TabLocation>
                  </div>
                );
              })}
              {!panes.some((x) => x.key === activeKey) && (
                <div className="at-tab-pane">
                  <TabLocation location={activeLocation}>{resolveContent(location.pathname, manifest, index)}</TabLocation>
                </div>
              )}
            </main>
          </div>
          {chatOpen && <Suspense fallback={null}><ChatPanel mobile={mobile} /></Suspense>}
          {compact && !mobile && !fullscreen && (
            <div className="at-rightbar" data-testid="right-toolbar">
              <NavTools vertical />
            </div>
          )}
        </div>
        {/* Its own boundary, mounted with it: a route change is a transition, and a lazy part first shown
            inside an already visible boundary would hold the new page back (and lose its tab) until it loads. */}
        {sideToolbar && (
          <Suspense fallback={null}>
            <SideToolbar activeTitle={activeTitle} />
          </Suspense>
        )}
        <Suspense fallback={null}>
          {(passwordDialog || changePasswordOpen) && <PasswordModal />}
          {themeDrawer && <ThemeDrawer />}
          {feedbackOpen && <FeedbackDialog activeTitle={activeTitle} />}
          {defaultSystemOpen && <DefaultSystemDialog />}
          {helpOpen && <HelpDrawer pageTitle={activeTitle} />}
        </Suspense>
        {fullscreen && !pinnedFullscreen && <FullscreenExitButton onExit={exitFullscreen} />}
        <SlotOutlet items={overlays} />
      </div>
    </ShellContext.Provider>
  );
}

