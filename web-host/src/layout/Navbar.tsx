import { useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Avatar, Dropdown, Menu, Spin, Tooltip } from 'antd';
import {
  AppstoreIcon, BgColorsIcon, CheckIcon, DownIcon, GlobalIcon, HomeIcon, LockIcon,
  LogoutIcon, MenuFoldIcon, MenuUnfoldIcon, QuestionCircleIcon, RobotIcon, SettingIcon,
  SwapIcon, UserIcon, ApartmentIcon, DesktopIcon,
} from '../icons';
import { appUrl, localeText, request, session, useSession, useT, type Locale } from '@atrium/sdk';
import { logout, switchSystem, switchTenant } from '../api';
import { useLanguageOptions } from '../languages';
import { languageMenuItems, switchLanguage } from '../components/languageMenu';
import { avatarText, shortName } from '../menus';
import { setSidebar, store, useStore } from '../store';
import { navbarColors } from '../theme';
import { Logo } from '../components/Logo';
import { useSlot, SlotOutlet } from '../plugins/Slots';
import { ssoSignOutTarget, userMenuRules } from '../sso';
import { menuTitle } from './titles';
import { useAvatarSrc } from '../components/avatar';

interface SystemItem {
  systemCode: string;
  systemName: string;
  systemEnName?: string;
  iconUrl?: string;
  requestUrl?: string;
  useState?: number | string;
}

interface TenantItem {
  tenantId: string | number;
  tenantName: string;
  parentTenantId?: string | number;
}

function TenantSwitch() {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { profile } = useSession();
  const [tenants, setTenants] = useState<TenantItem[] | null>(null);
  const load = async (open: boolean) => {
    if (!open) return;
    try {
      const list = await request<TenantItem[]>('base/base-tenant/find-user-tenants-filter-system', {
        method: 'POST', params: { enterType: 'PC', systemCode: session.getSystemCode() }, data: {},
      });
      setTenants(Array.isArray(list) ? list : []);
    } catch {
      setTenants([]);
    }
  };
  const items = tenants === null
    ? [{ key: 'loading', label: <Spin size="small" />, disabled: true }]
    : tenants.length
      ? tenants.map((x) => ({
          key: String(x.tenantId),
          label: x.tenantName,
          icon: String(x.tenantId) === String(profile.tenantId) ? <CheckIcon /> : <span style={{ width: 14, display: 'inline-block' }} />,
        }))
      : [{ key: 'empty', label: t('navbar.noTenants'), disabled: true }];
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={load}
      menu={{
        items,
        selectable: false,
        onClick: async ({ key }) => {
          if (key === String(profile.tenantId)) return;
          const hide = message.loading(t('navbar.switching'), 0);
          try {
            await switchTenant(key);
            navigate('/home');
            message.success(t('navbar.tenantSwitched'));
          } catch {
            /* the request client showed the reason */
          } finally {
            hide();
          }
        },
      }}
    >
      <button type="button" className="at-nav-item" data-testid="tenant-switch" title={t('navbar.tenant')}>
        <ApartmentIcon />
        <span className="at-hide-mobile">{profile.tenantName || t('navbar.tenant')}</span>
        <DownIcon style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}

function SystemSwitch() {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { systemCode } = useSession();
  const setting = useStore((s) => s.setting);
  const [systems, setSystems] = useState<SystemItem[] | null>(null);
  const load = async (open: boolean) => {
    if (!open) return;
    try {
      const list = await request<SystemItem[]>('base/base-tenant-system/find-user-system', { method: 'POST', data: {} });
      setSystems(Array.isArray(list) ? list : []);
    } catch {
      setSystems([]);
    }
  };
  const current = systems?.find((s) => s.systemCode === systemCode);
  const name = current ? localeText(current.systemName, current.systemEnName, t.locale) : localeText(setting.systemName, setting.systemEnName, t.locale) || systemCode;
  const choose = async (system: SystemItem) => {
    if (String(system.useState) !== '1') {
      message.error(t('navbar.systemForbidden'));
      return;
    }
    if (!system.requestUrl) {
      message.warning(t('navbar.systemNotOpen'));
      return;
    }
    if (system.systemCode === systemCode) return;
    if (/^https?:\/\//.test(system.requestUrl) && !system.requestUrl.startsWith(window.location.origin)) {
      const sep = system.requestUrl.includes('?') ? '&' : '?';
      window.open(`${system.requestUrl}${sep}token=${encodeURIComponent(session.getToken() || '')}&systemCode=${encodeURIComponent(system.systemCode)}`, '_blank');
      return;
    }
    const hide = message.loading(t('navbar.switching'), 0);
    try {
      await switchSystem(system.systemCode);
      navigate('/home');
    } catch {
      /* shown by the request client */
    } finally {
      hide();
    }
  };
  const items = systems === null
    ? [{ key: 'loading', label: <Spin size="small" />, disabled: true }]
    : systems.map((s) => ({
        key: s.systemCode,
        label: (
          <span data-testid={`system-${s.systemCode}`} style={{ opacity: String(s.useState) === '1' && s.requestUrl ? 1 : 0.55 }}>
            {localeText(s.systemName, s.systemEnName, t.locale)}
          </span>
        ),
        icon: s.systemCode === systemCode ? <CheckIcon /> : <span style={{ width: 14, display: 'inline-block' }} />,
      }));
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={load}
      menu={{ items, onClick: ({ key }) => { const s = systems?.find((x) => x.systemCode === key); if (s) void choose(s); } }}
    >
      <button type="button" className="at-nav-item" data-testid="system-switch" title={t('navbar.system')}>
        <DesktopIcon />
        <span className="at-hide-mobile">{name}</span>
        <DownIcon style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}

export function LanguageSwitch() {
  const t = useT();
  const languages = useLanguageOptions();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [t.locale],
        items: languageMenuItems(languages),
        onClick: ({ key }) => switchLanguage(key as Locale),
      }}
    >
      <button type="button" className="at-nav-item" data-testid="language-switch" aria-label={t('navbar.language')} title={t('navbar.language')}>
        <GlobalIcon />
      </button>
    </Dropdown>
  );
}

function UserMenu() {
  const t = useT();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const user = useStore((s) => s.user);
  const name = user?.userFullName || session.profile.userFullName || '';
  const rules = userMenuRules(user);
  const avatar = useAvatarSrc(user);
  const items = [
    { key: 'home', icon: <HomeIcon />, label: t('user.home') },
    ...(rules.changePassword ? [{ key: 'password', icon: <LockIcon />, label: t('user.changePassword') }] : []),
    { key: 'person', icon: <UserIcon />, label: t('user.personal') },
    { key: 'defaultSystem', icon: <SettingIcon />, label: t('user.defaultSystem') },
    ...(rules.signOut ? [{ type: 'divider' as const }, { key: 'logout', icon: <LogoutIcon />, label: t('user.logout'), danger: true }] : []),
  ];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === 'home') navigate('/home');
          if (key === 'password') store.set({ changePasswordOpen: true });
          if (key === 'person') navigate('/person-info');
          if (key === 'defaultSystem') store.set({ defaultSystemOpen: true });
          if (key === 'logout') {
            modal.confirm({
              title: t('user.logoutConfirm'),
              okText: t('common.ok'),
              cancelText: t('common.cancel'),
              onOk: async () => {
                // Read before logout(): the target depends on the stored user and sso tokens.
                const target = await ssoSignOutTarget();
                await logout();
                if (target && target !== '/login') window.location.assign(appUrl(target));
                else navigate('/login');
              },
            });
          }
        },
      }}
    >
      <div className="at-user" data-testid="user-menu">
        <Avatar size={30} src={avatar} style={{ background: 'var(--at-primary)', flex: '0 0 auto' }}>{avatarText(name)}</Avatar>
        <span className="at-hide-mobile" data-testid="user-name">{shortName(name)}</span>
        <DownIcon style={{ fontSize: 10 }} />
      </div>
    </Dropdown>
  );
}

function CompactTopMenu() {
  const t = useT();
  const navigate = useNavigate();
  const index = useStore((s) => s.index);
  const items = (index?.tree || []).map((m) => ({ key: String(m.menuId), label: menuTitle(m, t.locale) }));
  return (
    <Menu
      mode="horizontal"
      items={items}
      style={{ flex: 1, minWidth: 0, background: 'transparent', borderBottom: 0, color: 'inherit' }}
      onClick={({ key }) => {
        store.set({ compactTop: key });
        const menu = index?.byId.get(key);
        const first = menu?.path ? menu : (function find(m): typeof menu { for (const c of m?.children || []) { if (c.path && !c.children) return c; const f = find(c); if (f) return f; } return undefined; })(menu);
        if (first?.path) navigate(first.path);
      }}
    />
  );
}

/** The tools of the navbar (in the compact layout they move to a right-hand bar). */
export function NavTools({ vertical = false }: { vertical?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const flags = useStore((s) => s.flags);
  const manifest = useStore((s) => s.manifest);
  const chatOpen = useStore((s) => s.chatOpen);
  const navbarSlots = useSlot(manifest, 'navbarItem');
  const tip = (title: string) => ({ title, placement: vertical ? ('left' as const) : ('bottom' as const) });
  return (
    <>
      <Tooltip {...tip(t('navbar.portal'))}>
        <button type="button" className="at-nav-item" data-testid="back-portal" onClick={() => navigate('/portal')} aria-label={t('navbar.portal')}>
          <AppstoreIcon />
        </button>
      </Tooltip>
      <SlotOutlet items={navbarSlots} props={{ color: 'inherit', compact: vertical }} />
      <Tooltip {...tip(t('navbar.theme'))}>
        <button type="button" className="at-nav-item" data-testid="theme-button" onClick={() => store.set({ themeDrawer: true })} aria-label={t('navbar.theme')}>
          <BgColorsIcon />
        </button>
      </Tooltip>
      <LanguageSwitch />
      {flags.chat && (
        <Tooltip {...tip(t('navbar.chat'))}>
          <button type="button" className="at-nav-item" data-testid="chat-toggle" style={chatOpen ? { color: 'var(--at-primary)' } : undefined} onClick={() => store.set({ chatOpen: !chatOpen })} aria-label={t('navbar.chat')}>
            <RobotIcon />
          </button>
        </Tooltip>
      )}
      {flags.help && flags.chat && (
        <Tooltip {...tip(t('navbar.help'))}>
          <button type="button" className="at-nav-item" data-testid="help-button" onClick={() => store.set({ helpOpen: true })} aria-label={t('navbar.help')}>
            <QuestionCircleIcon />
          </button>
        </Tooltip>
      )}
    </>
  );
}

export function Navbar({ activeTitle: _activeTitle }: { activeTitle: string }) {
  const t = useT();
  const navigate = useNavigate();
  const setting = useStore((s) => s.setting);
  const theme = useStore((s) => s.theme);
  const configured = useStore((s) => s.flags.configuredColor);
  const device = useStore((s) => s.device);
  const sidebarOpened = useStore((s) => s.sidebarOpened);
  const colors = navbarColors(theme.navbar, theme.style === 'dark', theme.style === 'one-stop', configured || theme.themeColor);
  const mobile = device === 'mobile';
  const compact = theme.layout === 'compact' && !mobile;
  const title = localeText(setting.systemTitle || setting.systemName, setting.systemEnName, t.locale) || t('app.title');
  return (
    <header className="at-navbar" style={{ background: colors.background, color: colors.color }} data-testid="navbar">
      {mobile && (
        <button type="button" className="at-nav-item" onClick={() => setSidebar(!sidebarOpened)} aria-label={t('navbar.menu')} data-testid="mobile-menu">
          {sidebarOpened ? <MenuFoldIcon /> : <MenuUnfoldIcon />}
        </button>
      )}
      <a className="at-logo" href="home" onClick={(e) => { e.preventDefault(); navigate('/home'); }} data-testid="logo">
        <Logo src={setting.systemLogo} />
        <span className="at-logo-title">{title}</span>
      </a>
      {compact ? <CompactTopMenu /> : <span className="at-spacer" />}
      {!mobile && <TenantSwitch />}
      {!mobile && <SystemSwitch />}
      {!compact && !mobile && <NavTools />}
      {mobile && (
        <Dropdown trigger={['click']} popupRender={() => <div className="at-mobile-tools"><TenantSwitch /><SystemSwitch /><NavTools vertical /></div>}>
          <button type="button" className="at-nav-item" aria-label={t('navbar.more')}><SwapIcon /></button>
        </Dropdown>
      )}
      <UserMenu />
    </header>
  );
}
