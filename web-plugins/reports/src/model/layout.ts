/** Panel layout (spec 2.3, 9), pure: scaling, backgrounds, the tabs grid and the clock's text. */
import { appUrl } from '@atrium/sdk';
import { withAlpha } from '../charts/common';
import type { CommonBackground, ComponentStyle, PanelComponent, PanelStyle } from './types';

/** Spec 9: the vertical scale factor is 115 percent. */
export const VERTICAL_FACTOR = 1.15;
export const DEFAULT_PANEL_WIDTH = 1600;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The horizontal scale: the container's width over the panel's design width. */
export function panelScale(containerWidth: number, panelWidth: number | undefined): number {
  const w = panelWidth && panelWidth > 0 ? panelWidth : DEFAULT_PANEL_WIDTH;
  return containerWidth > 0 ? containerWidth / w : 1;
}

/** A component's box on screen: widths by the panel scale, heights by 115 percent of it. */
export function scaleBox(style: Pick<ComponentStyle, 'left' | 'top' | 'width' | 'height'>, scale: number): Box {
  const v = scale * VERTICAL_FACTOR;
  return {
    left: Math.round((Number(style.left) || 0) * scale),
    top: Math.round((Number(style.top) || 0) * v),
    width: Math.max(1, Math.round((Number(style.width) || 0) * scale)),
    height: Math.max(1, Math.round((Number(style.height) || 0) * v)),
  };
}

/** The panel's height on screen: the lowest component's bottom edge. */
export function panelHeight(components: PanelComponent[], scale: number): number {
  let h = 0;
  for (const c of components) {
    const b = scaleBox(c.style || { left: 0, top: 0, width: 0, height: 0 }, scale);
    h = Math.max(h, b.top + b.height);
  }
  return h + 16;
}

export type Css = Record<string, string | number | undefined>;

/** A CSS `url()` of an image address, a platform one under the path prefix the platform is served at. */
function cssUrl(address: string): string {
  return `url("${appUrl(address).replace(/"/g, '%22')}")`;
}

/** The panel background: an image or a colour (panelStyle.panel). */
export function panelBackground(style: PanelStyle | undefined): Css {
  const p = style?.panel;
  if (p?.backgroundType === 'image' && p.imageUrl) {
    return { backgroundImage: cssUrl(p.imageUrl), backgroundSize: '100% 100%', backgroundRepeat: 'no-repeat' };
  }
  return { backgroundColor: p?.color || '#f5f6f7' };
}

/** A component's common background (spec 3.2): colour with alpha or an image, padding and radius. */
export function commonBackground(bg: CommonBackground | undefined, scale = 1): { outer: Css; inner: Css } {
  if (!bg || !bg.enable) return { outer: {}, inner: {} };
  const outer: Css = { borderRadius: `${Number(bg.borderRadius) || 0}px`, overflow: 'hidden' };
  const pad = Math.round((Number(bg.innerPadding) || 0) * scale);
  const inner: Css = { padding: pad ? `${pad}px` : undefined };
  const image = bg.backgroundType === 'outerImage' ? bg.outerImage : bg.backgroundType === 'innerImage' ? bg.innerImage : '';
  if (image) {
    outer.backgroundImage = cssUrl(String(image));
    outer.backgroundSize = '100% 100%';
    outer.backgroundRepeat = 'no-repeat';
  }
  if (bg.backgroundColorSelect !== false && bg.color && (!image || bg.backgroundType === 'color')) {
    outer.backgroundColor = withAlpha(bg.color, bg.alpha ?? 100);
  }
  return { outer, inner };
}

/** Spec 2.3: the tabs widget lays its content on a 24-column grid, rows of 30 px, margins of 10 px. */
export const TAB_GRID = { columns: 24, rowHeight: 30, margin: 10 };

export function gridBox(item: { x?: number; y?: number; w?: number; h?: number }, paneWidth: number): Box {
  const { columns, rowHeight, margin } = TAB_GRID;
  const colWidth = (paneWidth - margin * (columns + 1)) / columns;
  const x = Math.max(0, Number(item.x) || 0);
  const y = Math.max(0, Number(item.y) || 0);
  const w = Math.max(1, Number(item.w) || columns);
  const h = Math.max(1, Number(item.h) || 10);
  return {
    left: Math.round(margin + x * (colWidth + margin)),
    top: Math.round(margin + y * (rowHeight + margin)),
    width: Math.round(w * colWidth + (w - 1) * margin),
    height: Math.round(h * rowHeight + (h - 1) * margin),
  };
}

/** Tab content as a list (one object or a list is stored). */
export function tabContent(content: unknown): PanelComponent[] {
  if (Array.isArray(content)) return content.filter((c) => c && typeof c === 'object') as PanelComponent[];
  if (content && typeof content === 'object') return [content as PanelComponent];
  return [];
}

// ---------------------------------------------------------------------------------------------------------
// the clock (spec 3.2 formatInfo)
// ---------------------------------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats with the stored patterns: yyyy, MM, dd, HH / hh, mm, ss (hh is 12-hour with AM/PM only if `a`). */
export function formatPattern(d: Date, pattern: string): string {
  return pattern.replace(/yyyy|YYYY|MM|dd|DD|HH|hh|mm|ss|a/g, (t) => {
    switch (t) {
      case 'yyyy':
      case 'YYYY':
        return String(d.getFullYear());
      case 'MM':
        return pad(d.getMonth() + 1);
      case 'dd':
      case 'DD':
        return pad(d.getDate());
      case 'HH':
        return pad(d.getHours());
      case 'hh':
        return pattern.includes('a') ? pad(d.getHours() % 12 || 12) : pad(d.getHours());
      case 'mm':
        return pad(d.getMinutes());
      case 'ss':
        return pad(d.getSeconds());
      case 'a':
        return d.getHours() < 12 ? 'AM' : 'PM';
      default:
        return t;
    }
  });
}

export interface ClockText {
  time: string;
  date?: string;
  /** 0 (Sunday) to 6; the page translates it. */
  weekday?: number;
}

export function clockText(d: Date, info: PanelComponent['formatInfo']): ClockText {
  const f = info || {};
  const out: ClockText = { time: formatPattern(d, f.timeFormat || 'hh:mm:ss') };
  if (f.showDate) out.date = formatPattern(d, f.dateFormat || 'yyyy-MM-dd');
  if (f.showWeek) out.weekday = d.getDay();
  return out;
}

/** Spec 9: the clock refreshes every 500 ms. */
export const CLOCK_INTERVAL = 500;
