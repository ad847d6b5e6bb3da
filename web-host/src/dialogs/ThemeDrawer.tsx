import { Divider, Drawer, Segmented, Tooltip, Typography } from 'antd';
import { CheckIcon } from '../icons';
import { bus, useT } from '@atrium/sdk';
import { setTheme, store, useStore, type ThemeSettings } from '../store';
import { CONTROL_COLORS, NAVBAR_THEMES } from '../theme';

function Swatch({ color, active, onClick, label, testid }: { color: string; active: boolean; onClick: () => void; label: string; testid: string }) {
  return (
    <Tooltip title={label}>
      <button
        type="button"
        onClick={onClick}
        aria-label={label}
        data-testid={testid}
        aria-pressed={active}
        style={{ width: 30, height: 30, borderRadius: 8, border: color.toLowerCase() === '#ffffff' ? '1px solid #d9dee8' : 0, background: color, cursor: 'pointer', display: 'inline-flex', alignItems: 'center', justifyContent: 'center', color: color.toLowerCase() === '#ffffff' ? '#333' : '#fff' }}
      >
        {active && <CheckIcon />}
      </button>
    </Tooltip>
  );
}

/** Theme drawer: layout, overall style, top bar colour, control colour, menu style; persisted. */
export function ThemeDrawer() {
  const t = useT();
  const open = useStore((s) => s.themeDrawer);
  const theme = useStore((s) => s.theme);
  const flags = useStore((s) => s.flags);
  const update = (patch: Partial<ThemeSettings>) => {
    setTheme(patch);
    bus.emit('theme:changed', store.get().theme);
  };
  const section = (title: string) => <Typography.Title level={5} style={{ marginTop: 0 }}>{title}</Typography.Title>;
  return (
    <Drawer open={open} onClose={() => store.set({ themeDrawer: false })} title={t('theme.title')} size={340} data-testid="theme-drawer">
      {section(t('theme.layout'))}
      <Segmented block value={theme.layout} onChange={(v) => update({ layout: v as ThemeSettings['layout'] })}
        options={[{ value: 'default', label: t('theme.layoutDefault') }, { value: 'compact', label: t('theme.layoutCompact') }]} />
      <Divider />
      {section(t('theme.style'))}
      <Segmented block value={theme.style} onChange={(v) => update({ style: v as ThemeSettings['style'] })}
        options={[{ value: 'light', label: <span data-testid="style-light">{t('theme.light')}</span> }, { value: 'dark', label: <span data-testid="style-dark">{t('theme.dark')}</span> }, { value: 'one-stop', label: t('theme.oneStop') }]} />
      <Divider />
      {section(t('theme.navbar'))}
      <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap' }}>
        {NAVBAR_THEMES.map((n) => (
          <Swatch key={n.key} color={n.background} active={theme.navbar === n.key} onClick={() => update({ navbar: n.key })} label={t(`theme.navbarColors.${n.key}`)} testid={`navbar-${n.key}`} />
        ))}
      </div>
      {!flags.configuredColor && !flags.hideThemeControl && (
        <>
          <Divider />
          {section(t('theme.control'))}
          <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap' }}>
            {CONTROL_COLORS.map((c) => (
              <Swatch key={c} color={c} active={theme.themeColor.toLowerCase() === c.toLowerCase()} onClick={() => update({ themeColor: c })} label={c} testid={`color-${c.slice(1)}`} />
            ))}
          </div>
        </>
      )}
      <Divider />
      {section(t('theme.menu'))}
      <Segmented block value={theme.menuMode} onChange={(v) => update({ menuMode: v as ThemeSettings['menuMode'] })}
        options={[{ value: 'hover', label: t('theme.menuHover') }, { value: 'sider', label: t('theme.menuSider') }, { value: 'inline', label: t('theme.menuInline') }]} />
    </Drawer>
  );
}
