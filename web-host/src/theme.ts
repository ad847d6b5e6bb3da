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

// ---------------------------------------------------------------------------------------------------
// Colours that keep WCAG 2.1 AA contrast. They are antd theme tokens set on the host's ConfigProvider,
// so every remote drawn inside it inherits them.

type Rgb = [number, number, number];

function parseHex(color: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1];
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two #rgb / #rrggbb colours (1 when either is not one). */
export function contrast(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

/** `color`, mixed step by step with black (on light backgrounds) or white (on dark ones) until it has at
 * least `ratio` contrast with each of `backgrounds`; unchanged when it already has, or is not a hex colour. */
export function readableOn(color: string, backgrounds: string[], ratio: number, dark: boolean): string {
  const rgb = parseHex(color);
  if (!rgb) return color;
  const target: Rgb = dark ? [255, 255, 255] : [0, 0, 0];
  for (let step = 0; step <= 20; step += 1) {
    const mixed = rgb.map((v, i) => v + (target[i] - v) * (step / 20)) as Rgb;
    const hex = toHex(mixed);
    if (backgrounds.every((bg) => contrast(hex, bg) >= ratio)) return step === 0 ? color : hex;
  }
  return toHex(target);
}

/** The page background and the panels' (see Root's CSS variables). */
export const SURFACES = { light: ['#ffffff', '#f3f5f9', '#f7f9fd'], dark: ['#161c28', '#0d111a', '#121825'] };

/** Preset tag colours whose 7th shade (antd's tag text) is under 4.5:1 on their 1st (the tag's
 * background), with the darker shade that passes. Light theme only: the dark theme has its own palettes. */
const TAG_TEXT: Record<string, string> = {
  volcano7: '#ad2102',
  orange7: '#ad4e00',
  gold7: '#874d00',
  yellow7: '#876800',
  lime7: '#3f6600',
  green7: '#237804',
  cyan7: '#006d75',
};

/**
 * The antd tokens that keep text readable (WCAG 2.1 AA, 4.5:1): antd's grey secondary texts (#8c8c8c,
 * 3.4:1) and placeholders (#bfbfbf, 1.8:1), its red (#ff4d4f, 3.3:1) and its green, gold and blue
 * status texts are too light on white. Links take the theme colour, darkened when it is too light.
 */
export function accessibleTheme(primary: string, dark: boolean) {
  const surfaces = dark ? SURFACES.dark : SURFACES.light;
  const text = dark ? '255, 255, 255' : '0, 0, 0';
  const token = {
    colorTextSecondary: `rgba(${text}, 0.7)`,
    colorTextTertiary: `rgba(${text}, 0.62)`,
    colorTextDescription: `rgba(${text}, 0.62)`,
    colorTextPlaceholder: `rgba(${text}, 0.56)`,
    colorLink: readableOn(primary, surfaces, 4.5, dark),
    colorError: dark ? '#ff7875' : '#cf1322',
  };
  // Tags draw their text in the status colour on its lightest shade: darker shades for tags only.
  const tag = dark
    ? {}
    : { ...TAG_TEXT, colorSuccess: '#237804', colorWarning: '#874d00', colorInfo: '#0958d9' };
  return { token, tag };
}

/** The focus ring: the theme colour, darkened or lightened to 3:1 on the page and the panels (WCAG 1.4.11). */
export function focusRingColor(primary: string, dark: boolean): string {
  return readableOn(primary, dark ? SURFACES.dark : SURFACES.light, 3, dark);
}
