import type { NavbarTheme } from './store';

/** Top-bar backgrounds (spec 9): label key, background, text colour. */
export const NAVBAR_THEMES: { key: NavbarTheme; background: string; color: string }[] = [
  { key: 'default', background: '#ffffff', color: '#1f2533' },
  { key: 'red', background: '#c8262f', color: '#ffffff' },
  { key: 'sapphireBlue', background: '#0f2a6b', color: '#ffffff' },
  { key: 'blue', background: '#204be3', color: '#ffffff' },
  { key: 'tangerine', background: '#f06c1f', color: '#ffffff' },
  { key: 'green', background: '#14a05c', color: '#ffffff' },
  { key: 'orange', background: '#f29d12', color: '#ffffff' },
];

/** The 11 control colours. */
export const CONTROL_COLORS = [
  '#204BE3', '#1677FF', '#13C2C2', '#14A05C', '#52C41A', '#FAAD14',
  '#FA8C16', '#F5222D', '#EB2F96', '#722ED1', '#5B6B8C',
];

export function navbarColors(key: NavbarTheme, dark: boolean, oneStop: boolean, themeColor: string) {
  if (key === 'default') {
    if (dark) return { background: '#141a26', color: '#e6e9f0' };
    if (oneStop) return { background: themeColor, color: '#ffffff' };
    return { background: '#ffffff', color: '#1f2533' };
  }
  const found = NAVBAR_THEMES.find((t) => t.key === key)!;
  return { background: found.background, color: found.color };
}
