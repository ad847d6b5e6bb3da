import { Children, cloneElement, isValidElement, useId, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { App, Dropdown, Tabs } from 'antd';
import { CloseIcon, PushpinIcon } from '../icons';
import { HOME_PATH, closeAll, closeOthers, request, session, useT, type TabView } from '@atrium/sdk';
import { store, useStore } from '../store';
import { tabTitle } from './titles';

type Props = Record<string, unknown> & { children?: unknown; role?: string };

/**
 * antd draws each tab as a wrapper holding the tab (role=tab) and, beside it, a close button: a button
 * in the tab list, which may hold tabs only (ARIA tabs pattern; axe's aria-required-children). The wrapper
 * keeps the tab alone, named by its title; the close control is drawn inside the tab instead (see
 * `CloseControl`), and the keyboard closes the focused tab with Delete (antd's own key).
 */
function tabOnly(node: ReactElement, titleId: string | undefined): ReactElement {
  const props = node.props as Props;
  const tab = Children.toArray(props.children as never).find(
    (child): child is ReactElement<Props> => isValidElement(child) && (child.props as Props).role === 'tab',
  );
  if (!tab) return node;
  return cloneElement(node, undefined, cloneElement(tab, titleId ? { 'aria-labelledby': titleId } : {}));
}

/** Closes its tab on a click. Inside the tab, so not focusable (a tab holds no focusable control): the
 * keyboard closes the focused tab with Delete, or with its context menu (Shift+F10). */
function CloseControl({ label, onClose }: { label: string; onClose: () => void }) {
  return (
    <span
      role="button"
      className="at-tab-close"
      aria-label={label}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        onClose();
      }}
    >
      <CloseIcon aria-hidden />
    </span>
  );
}

/** The tab strip: close, close others, close all, set or cancel the default tab, middle-click close. */
export function TabStrip({ activeKey, closeTab }: { activeKey: string; closeTab: (key: string) => void }) {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const tabs = useStore((s) => s.tabs);
  const index = useStore((s) => s.index);
  const defaultMenu = useStore((s) => s.defaultMenu);
  const idPrefix = useId();
  const titleIds = new Map<string, string>();

  const setDefault = async (tab: TabView, cancel: boolean) => {
    try {
      await request('base/base-default-menu/save', {
        method: 'POST',
        data: { menuId: cancel ? null : tab.menuId ?? null, systemCode: session.getSystemCode(), routePath: cancel ? '' : tab.fullPath },
      });
      store.set({ defaultMenu: cancel ? null : { menuId: tab.menuId ?? '', routePath: tab.fullPath, systemCode: session.getSystemCode() } });
      message.success(cancel ? t('tabs.defaultCancelled') : t('tabs.defaultSet'));
    } catch {
      /* shown by the request client */
    }
  };

  const onMenu = (tab: TabView, key: string) => {
    if (key === 'close') closeTab(tab.key);
    if (key === 'others') {
      store.set({ tabs: closeOthers(store.get().tabs, tab.key) });
      if (tab.key !== activeKey) navigate(tab.fullPath);
    }
    if (key === 'all') {
      const result = closeAll(store.get().tabs);
      store.set({ tabs: result.tabs });
      navigate(result.navigateTo || HOME_PATH);
    }
    if (key === 'default') void setDefault(tab, false);
    if (key === 'undefault') void setDefault(tab, true);
  };

  const items = tabs.map((tab, i) => {
    const title = tabTitle(tab, index, t, t.locale);
    const titleId = `${idPrefix}tab-${i}`;
    titleIds.set(tab.key, titleId);
    const isDefault = !!defaultMenu?.routePath && (defaultMenu.routePath === tab.fullPath || defaultMenu.routePath === tab.path);
    const home = tab.path === HOME_PATH;
    const menuItems = [
      { key: 'close', label: t('tabs.close'), disabled: home },
      { key: 'others', label: t('tabs.closeOthers') },
      { key: 'all', label: t('tabs.closeAll') },
      { type: 'divider' as const },
      isDefault ? { key: 'undefault', label: t('tabs.cancelDefault') } : { key: 'default', label: t('tabs.setDefault'), disabled: home },
    ];
    return {
      key: tab.key,
      closable: !home,
      label: (
        <>
          <Dropdown trigger={['contextMenu']} menu={{ items: menuItems, onClick: ({ key }) => onMenu(tab, key) }}>
            <span
              id={titleId}
              data-testid={`tab-${tab.path}`}
              onMouseDown={(e) => {
                if (e.button === 1 && !home) {
                  e.preventDefault();
                  closeTab(tab.key);
                }
              }}
              style={{ display: 'inline-flex', alignItems: 'center', gap: 6, userSelect: 'none' }}
            >
              {isDefault && <PushpinIcon aria-hidden style={{ fontSize: 12, marginRight: 0 }} />}
              {title}
            </span>
          </Dropdown>
          {!home && <CloseControl label={t('tabs.closeTab', { title })} onClose={() => closeTab(tab.key)} />}
        </>
      ),
    };
  });

  return (
    <div className="at-tabs" data-testid="tab-strip">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={activeKey}
        items={items}
        renderTabBar={(props, DefaultTabBar) => (
          <DefaultTabBar {...props}>{(node) => tabOnly(node, titleIds.get(String(node.key)))}</DefaultTabBar>
        )}
        onChange={(key) => {
          const tab = tabs.find((x) => x.key === key);
          if (tab) navigate(tab.fullPath);
        }}
        onEdit={(key, action) => {
          if (action === 'remove') closeTab(String(key));
        }}
      />
    </div>
  );
}
