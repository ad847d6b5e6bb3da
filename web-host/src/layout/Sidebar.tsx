import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AutoComplete, Badge, Input, Menu, Popover, Spin, Tooltip } from 'antd';
import { AppstoreIcon, DownIcon, FileTextIcon, FolderIcon, MenuFoldIcon, MenuUnfoldIcon, RightIcon, SearchIcon } from '../icons';
import { appUrl, request, session, useT, type MenuItem } from '@atrium/sdk';
import { loadMenuNums } from '../api';
import { findMenu, menuPath } from '../menus';
import { setSidebar, store, useStore } from '../store';
import { menuTitle } from './titles';
import { fetchEntryKey, fetchEntryPath, isFetchMenu, loadMenuFetch, parseFetchEntryKey, type MenuFetchEntry } from './menuFetch';

/** Fetch menus' entries, loaded when a menu is expanded (undefined: not loaded yet). */
function useMenuFetch() {
  const [entries, setEntries] = useState<Record<string, MenuFetchEntry[]>>({});
  const expand = useCallback((menuId: string) => {
    void loadMenuFetch(menuId)
      .then((list) => setEntries((s) => ({ ...s, [menuId]: list })))
      .catch(() => setEntries((s) => ({ ...s, [menuId]: [] })));
  }, []);
  return { entries, expand };
}

/** A fetch menu's entries in the sider popover: asked when the group is shown. */
function FetchLinks({ menu, onOpen }: { menu: MenuItem; onOpen: (path: string) => void }) {
  const t = useT();
  const { entries, expand } = useMenuFetch();
  const id = String(menu.menuId);
  useEffect(() => expand(id), [expand, id]);
  const list = entries[id];
  if (!list) return <div className="at-pop-link"><Spin size="small" /></div>;
  if (!list.length) return <div className="at-pop-link" style={{ opacity: 0.6 }}>{t('menu.fetchEmpty')}</div>;
  return (
    <>
      {list.map((e) => {
        const path = fetchEntryPath(menu, e);
        return (
          <a key={e.menuFetchId} className="at-pop-link" data-testid={`menu-fetch-${e.menuFetchId}`} onClick={() => path && onOpen(path)}>
            <Label text={e.fetchItemName} limit={105} />
          </a>
        );
      })}
    </>
  );
}

/** One empty list, so that a page outside the menus keeps the memoised side tree. */
const NO_PARENTS: string[] = [];

const canvas = typeof document !== 'undefined' ? document.createElement('canvas') : null;
/** Width of a title in px at the menu's font, to decide on tooltips (spec 9: 105 px, 120 at top level). */
export function textWidth(text: string, font = '14px -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif'): number {
  const ctx = canvas?.getContext('2d');
  if (!ctx) return text.length * 14;
  ctx.font = font;
  return ctx.measureText(text).width;
}

function MenuIcon({ menu, level }: { menu: MenuItem; level: number }) {
  const url = menu.menuIconurl;
  if (url && /^(https?:|\/|data:)/.test(url)) return <img src={appUrl(url)} alt="" style={{ width: 16, height: 16, objectFit: 'contain' }} />;
  if (level > 0) return <FileTextIcon />;
  return menu.children?.length ? <AppstoreIcon /> : <FolderIcon />;
}

function useBadge() {
  const nums = useStore((s) => s.menuNums);
  return (menu: MenuItem): number => (menu.subscriptStatus === 1 && menu.key ? Number(nums[menu.key] || 0) : 0);
}

function collectKeys(items: MenuItem[], out: string[] = []): string[] {
  for (const m of items) {
    if (m.subscriptStatus === 1 && m.key) out.push(m.key);
    if (m.children) collectKeys(m.children, out);
  }
  return out;
}

function firstPage(menu: MenuItem | undefined): MenuItem | undefined {
  if (!menu) return undefined;
  if (menu.path && !menu.children?.length) return menu;
  for (const c of menu.children || []) {
    const f = firstPage(c);
    if (f) return f;
  }
  return undefined;
}

function go(navigate: (p: string) => void, menu: MenuItem | undefined) {
  const page = firstPage(menu);
  if (page?.path) {
    navigate(page.path);
    if (store.get().device === 'mobile') store.set({ sidebarOpened: false });
  }
}

/** Keyword menu search (`get-keyword`). */
function MenuSearch() {
  const t = useT();
  const navigate = useNavigate();
  const [options, setOptions] = useState<{ value: string; label: ReactNode; path: string }[]>([]);
  const [value, setValue] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const search = (keyword: string) => {
    setValue(keyword);
    clearTimeout(timer.current);
    if (!keyword.trim()) {
      setOptions([]);
      return;
    }
    timer.current = setTimeout(async () => {
      try {
        const list = await request<MenuItem[]>('base/base-rolemenu/get-keyword', { params: { keyword: keyword.trim(), systemCode: session.getSystemCode() }, silent: true });
        setOptions(
          (Array.isArray(list) ? list : [])
            .map((m) => ({ m, path: m.path || menuPath(m) }))
            .filter((x) => x.path)
            .map(({ m, path }) => ({ value: `${m.menuId}`, path: path!, label: <span data-testid="menu-search-option">{menuTitle(m, t.locale)}</span> })),
        );
      } catch {
        setOptions([]);
      }
    }, 250);
  };
  return (
    <div className="at-search">
      <AutoComplete
        style={{ width: '100%' }}
        options={options}
        value={value}
        onSearch={search}
        onSelect={(_v, option) => {
          setValue('');
          setOptions([]);
          navigate((option as { path: string }).path);
        }}
        notFoundContent={value ? t('menu.searchEmpty') : null}
      >
        <Input prefix={<SearchIcon />} placeholder={t('menu.search')} allowClear data-testid="menu-search" />
      </AutoComplete>
    </div>
  );
}

function Label({ text, limit, children }: { text: string; limit: number; children?: ReactNode }) {
  const inner = (
    <span className="label" style={{ display: 'inline-flex', alignItems: 'center', gap: 6, overflow: 'hidden', maxWidth: '100%' }}>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{text}</span>
      {children}
    </span>
  );
  return textWidth(text) > limit ? <Tooltip title={text} placement="right">{inner}</Tooltip> : inner;
}

/** The sider mode: top-level entries with a popover of groups (up to three levels). */
function SiderPopMenu({ tree, collapsed, activeId }: { tree: MenuItem[]; collapsed: boolean; activeId?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const badge = useBadge();
  const parents = useStore((s) => s.index?.parents);
  const activeTop = activeId ? (parents?.get(activeId)?.[0] ?? activeId) : undefined;
  const [closedGroups, setClosedGroups] = useState<Record<string, boolean>>({});
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div>
      {tree.map((top) => {
        const id = String(top.menuId);
        const title = menuTitle(top, t.locale);
        const row = (
          <div className={`at-sider-item${activeTop === id ? ' active' : ''}`} data-testid={`sider-top-${id}`} onClick={() => (!top.children?.length ? go(navigate, top) : setOpen(id))}>
            <MenuIcon menu={top} level={0} />
            {!collapsed && <Label text={title} limit={120}><Badge count={badge(top)} overflowCount={99} size="small" /></Label>}
            {!collapsed && top.children?.length ? <RightIcon style={{ fontSize: 10, opacity: 0.6 }} /> : null}
          </div>
        );
        if (!top.children?.length) return <div key={id}>{collapsed ? <Tooltip title={title} placement="right">{row}</Tooltip> : row}</div>;
        const nested = top.children.some((c) => c.children?.length || isFetchMenu(c));
        const wide = top.children.length > 6;
        const link = (m: MenuItem) => (
          <a key={String(m.menuId)} className="at-pop-link" onClick={() => { setOpen(null); go(navigate, m); }} data-testid={`menu-link-${m.menuId}`}>
            <Label text={menuTitle(m, t.locale)} limit={105}><Badge count={badge(m)} overflowCount={99} size="small" /></Label>
          </a>
        );
        const content = nested ? (
          <div className="at-pop-menu" style={{ width: 530 }}>
            {top.children.map((g) => {
              const gid = String(g.menuId);
              if (isFetchMenu(g) && !g.children?.length) {
                const closed = closedGroups[gid];
                return (
                  <div key={gid} className="at-pop-group" data-testid={`menu-fetch-group-${gid}`}>
                    <div className="at-pop-group-title" onClick={() => setClosedGroups((s) => ({ ...s, [gid]: !closed }))}>
                      <Label text={menuTitle(g, t.locale)} limit={105} />
                      {closed ? <RightIcon style={{ fontSize: 10 }} /> : <DownIcon style={{ fontSize: 10 }} />}
                    </div>
                    {!closed && <FetchLinks menu={g} onOpen={(path) => { setOpen(null); navigate(path); }} />}
                  </div>
                );
              }
              if (!g.children?.length) return <div key={gid} className="at-pop-group">{link(g)}</div>;
              const closed = closedGroups[gid];
              return (
                <div key={gid} className="at-pop-group">
                  <div className="at-pop-group-title" onClick={() => setClosedGroups((s) => ({ ...s, [gid]: !closed }))}>
                    <Label text={menuTitle(g, t.locale)} limit={105} />
                    {closed ? <RightIcon style={{ fontSize: 10 }} /> : <DownIcon style={{ fontSize: 10 }} />}
                  </div>
                  {!closed && g.children.map(link)}
                </div>
              );
            })}
          </div>
        ) : (
          <div className={wide ? 'at-pop-wide' : undefined} style={{ width: wide ? 530 : 220, display: wide ? 'grid' : 'block', gridTemplateColumns: wide ? '1fr 1fr' : undefined, gap: 2 }}>
            {top.children.map(link)}
          </div>
        );
        return (
          <Popover
            key={id}
            placement="rightTop"
            trigger="hover"
            open={open === id}
            onOpenChange={(v) => setOpen(v ? id : null)}
            content={content}
            title={title}
            arrow={false}
          >
            {row}
          </Popover>
        );
      })}
    </div>
  );
}

export function Sidebar({ inDrawer = false }: { inDrawer?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const index = useStore((s) => s.index);
  const opened = useStore((s) => s.sidebarOpened);
  const theme = useStore((s) => s.theme);
  const compactTop = useStore((s) => s.compactTop);
  const device = useStore((s) => s.device);
  const badge = useBadge();
  const collapsed = !inDrawer && !opened;
  const menu = findMenu(index, location.pathname);
  const activeId = menu ? String(menu.menuId) : undefined;
  const parents = (activeId && index?.parents.get(activeId)) || NO_PARENTS;

  // Compact layout: the side shows the children of the selected top-level menu.
  const tree = useMemo(() => {
    const full = index?.tree || [];
    if (theme.layout !== 'compact' || device === 'mobile') return full;
    const topId = compactTop || parents[0] || activeId || (full[0] ? String(full[0].menuId) : undefined);
    const top = full.find((m) => String(m.menuId) === topId);
    return top?.children?.length ? top.children : top ? [top] : full;
  }, [index, theme.layout, compactTop, parents, activeId, device]);

  const [openKeys, setOpenKeys] = useState<string[]>(parents);
  useEffect(() => {
    if (activeId) setOpenKeys((keys) => Array.from(new Set([...keys, ...(index?.parents.get(activeId) || [])])));
  }, [activeId, index]);

  // Menu counters: loaded with the menus, refreshed on hover (debounced 1 s).
  const keys = useMemo(() => collectKeys(index?.tree || []), [index]);
  useEffect(() => {
    void loadMenuNums(keys);
  }, [keys]);
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onHover = () => {
    clearTimeout(hoverTimer.current);
    hoverTimer.current = setTimeout(() => void loadMenuNums(keys), 1000);
  };

  const { entries: fetched, expand } = useMenuFetch();
  const fetchChildren = (m: MenuItem): any[] => {
    const id = String(m.menuId);
    const list = fetched[id];
    if (!list) return [{ key: `fetch-loading:${id}`, disabled: true, label: <Spin size="small" /> }];
    if (!list.length) return [{ key: `fetch-empty:${id}`, disabled: true, label: t('menu.fetchEmpty') }];
    return list.map((e) => ({
      key: fetchEntryKey(id, e.menuFetchId),
      label: <span data-testid={`menu-fetch-${e.menuFetchId}`} title={textWidth(e.fetchItemName) > 105 ? e.fetchItemName : undefined}>{e.fetchItemName}</span>,
    }));
  };

  const toItems = (items: MenuItem[], level: number): any[] =>
    items.map((m) => {
      const title = menuTitle(m, t.locale);
      const count = badge(m);
      const fetch = isFetchMenu(m) && !m.children?.length;
      return {
        key: String(m.menuId),
        icon: level === 0 ? <MenuIcon menu={m} level={0} /> : undefined,
        label: (
          <span data-testid={`menu-${m.menuId}`} title={textWidth(title) > (level === 0 ? 120 : 105) ? title : undefined} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 6 }}>
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{title}</span>
            {count > 0 && <Badge count={count} overflowCount={99} size="small" />}
          </span>
        ),
        children: fetch ? fetchChildren(m) : m.children?.length ? toItems(m.children, level + 1) : undefined,
      };
    });

  const mode = inDrawer ? 'inline' : theme.menuMode;
  const width = collapsed ? 64 : mode === 'sider' ? 200 : 220;
  const onClick = ({ key }: { key: string }) => {
    const entry = parseFetchEntryKey(key);
    if (!entry) return go(navigate, index?.byId.get(key));
    const menu = index?.byId.get(entry.menuId);
    const found = fetched[entry.menuId]?.find((e) => String(e.menuFetchId) === entry.entryId);
    const path = menu && found ? fetchEntryPath(menu, found) : undefined;
    if (path) navigate(path);
  };
  // a fetch menu's entries are asked for when it is expanded
  const onOpenChange = (keys: string[]) => {
    for (const k of keys) if (isFetchMenu(index?.byId.get(k)) && !fetched[k]) expand(k);
    if (mode === 'inline') setOpenKeys(keys);
  };

  return (
    <aside className={`at-sider${device === 'mobile' ? ' no-anim' : ''}${collapsed ? ' at-sider-collapsed' : ''}`} style={{ width: inDrawer ? '100%' : width, height: inDrawer ? '100%' : undefined }} data-testid="sidebar" onMouseEnter={onHover}>
      {!collapsed && <MenuSearch />}
      <div className="at-sider-scroll">
        {mode === 'sider' ? (
          <SiderPopMenu tree={tree} collapsed={collapsed} activeId={activeId} />
        ) : (
          <Menu
            mode={mode === 'hover' ? 'vertical' : 'inline'}
            inlineCollapsed={mode === 'inline' ? collapsed : undefined}
            items={toItems(tree, 0)}
            selectedKeys={activeId ? [activeId] : []}
            openKeys={mode === 'inline' && !collapsed ? openKeys : undefined}
            onOpenChange={(k) => onOpenChange(k as string[])}
            onClick={onClick}
            theme={theme.style === 'dark' ? 'dark' : 'light'}
            style={{ paddingTop: 4 }}
          />
        )}
      </div>
      {!inDrawer && (
        <div className="at-sider-foot" onClick={() => setSidebar(!opened)} data-testid="sidebar-toggle" role="button" aria-label={t(opened ? 'menu.collapse' : 'menu.expand')}>
          {opened ? <MenuFoldIcon /> : <MenuUnfoldIcon />}
        </div>
      )}
    </aside>
  );
}
