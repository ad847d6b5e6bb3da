/**
 * What a drawn chart shows, read back from its engine: the option it drew and the box of every text it drew
 * (labels hidden to avoid an overlap are left out). A chart's node carries it as `atriumChart`, so a page can
 * check that no label overlaps another, none leaves the card and every number is formatted.
 */
import type { Json } from './common';

export interface DrawnText {
  text: string;
  /** The box in pixels from the chart node's top left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChartInspection {
  engine: 'echarts' | 'antv';
  /** The option the engine drew: echarts getOption(), g2plot's plot options. */
  option(): Json;
  /** Read on demand (this module comes with the first call): a person viewing a panel never asks. */
  texts(): Promise<DrawnText[]>;
}

/** The node of a chart with its inspection attached. */
export type InspectedNode = HTMLElement & { atriumChart?: ChartInspection };

function box(text: string, x: number, y: number, width: number, height: number): DrawnText {
  const r = (n: number) => Math.round(n * 10) / 10;
  return { text, x: r(x), y: r(y), width: r(width), height: r(height) };
}

/** echarts: the text spans of its display list (hidden labels are not in it), one box per text element. */
export function echartsTexts(chart: any): DrawnText[] {
  if (!chart || chart.isDisposed?.()) return [];
  const list: any[] = chart.getZr().storage.getDisplayList(true);
  const byText = new Map<any, { parts: string[]; x1: number; y1: number; x2: number; y2: number }>();
  for (const el of list) {
    if (el.type !== 'tspan' || el.invisible || !el.style?.text) continue;
    if (el.style.opacity === 0) continue;
    const rect = el.getBoundingRect().clone();
    // a text is at least as tall as its font, whatever the font's metrics say
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(String(el.style.font || ''))?.[1] || 0);
    if (rect.height < size) {
      rect.y -= (size - rect.height) / 2;
      rect.height = size;
    }
    if (el.transform) rect.applyTransform(el.transform);
    // what a clip path (a scrolling legend, a treemap block) cuts away is not drawn
    for (const clip of el.__clipPaths || []) {
      const c = clip.getBoundingRect().clone();
      if (clip.transform) c.applyTransform(clip.transform);
      const x1 = Math.max(rect.x, c.x);
      const y1 = Math.max(rect.y, c.y);
      rect.width = Math.max(0, Math.min(rect.x + rect.width, c.x + c.width) - x1);
      rect.height = Math.max(0, Math.min(rect.y + rect.height, c.y + c.height) - y1);
      rect.x = x1;
      rect.y = y1;
    }
    if (rect.width < 1 || rect.height < 1) continue;
    const owner = el.parent || el;
    const seen = byText.get(owner);
    if (seen) {
      seen.parts.push(String(el.style.text));
      seen.x1 = Math.min(seen.x1, rect.x);
      seen.y1 = Math.min(seen.y1, rect.y);
      seen.x2 = Math.max(seen.x2, rect.x + rect.width);
      seen.y2 = Math.max(seen.y2, rect.y + rect.height);
    } else {
      byText.set(owner, { parts: [String(el.style.text)], x1: rect.x, y1: rect.y, x2: rect.x + rect.width, y2: rect.y + rect.height });
    }
  }
  return Array.from(byText.values()).map((t) => box(t.parts.join('\n'), t.x1, t.y1, t.x2 - t.x1, t.y2 - t.y1));
}

/** g2plot: the visible text shapes of its canvas (cut by their groups' clips: a paged legend), and the HTML
 * annotations (statistics) in its node. */
export function g2plotTexts(plot: any, node: HTMLElement): DrawnText[] {
  const out: DrawnText[] = [];
  const canvas = plot?.chart?.getCanvas?.();
  type Rect = { x1: number; y1: number; x2: number; y2: number };
  const clipOf = (el: any): Rect | null => {
    const clip = el.getClip?.();
    if (!clip) return null;
    const b = clip.getBBox();
    const m: number[] = el.getTotalMatrix?.() || [1, 0, 0, 0, 1, 0, 0, 0, 1];
    const pts = [[b.minX, b.minY], [b.maxX, b.minY], [b.minX, b.maxY], [b.maxX, b.maxY]].map(([x, y]) => [m[0] * x + m[3] * y + m[6], m[1] * x + m[4] * y + m[7]]);
    return { x1: Math.min(...pts.map((p) => p[0])), y1: Math.min(...pts.map((p) => p[1])), x2: Math.max(...pts.map((p) => p[0])), y2: Math.max(...pts.map((p) => p[1])) };
  };
  const cut = (a: Rect | null, b: Rect | null): Rect | null => {
    if (!a) return b;
    if (!b) return a;
    return { x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1), x2: Math.min(a.x2, b.x2), y2: Math.min(a.y2, b.y2) };
  };
  const visit = (el: any, clip: Rect | null) => {
    if (!el || el.destroyed || el.get('visible') === false) return;
    const here = cut(clip, clipOf(el));
    if (typeof el.getChildren === 'function' && (el.isGroup?.() || el.isCanvas?.())) {
      for (const child of el.getChildren()) visit(child, here);
      return;
    }
    if (el.get('type') !== 'text') return;
    const text = el.attr('text');
    if (text === null || text === undefined || String(text) === '') return;
    if (el.attr('opacity') === 0 || el.attr('fillOpacity') === 0) return;
    const b = el.getCanvasBBox();
    const r = cut(here, { x1: b.minX, y1: b.minY, x2: b.maxX, y2: b.maxY })!;
    if (r.x2 - r.x1 < 1 || r.y2 - r.y1 < 1) return;
    out.push(box(String(text), r.x1, r.y1, r.x2 - r.x1, r.y2 - r.y1));
  };
  if (canvas) visit(canvas, null);
  const origin = node.getBoundingClientRect();
  node.querySelectorAll<HTMLElement>('.g2-html-annotation').forEach((el) => {
    const text = (el.innerText || '').trim();
    const r = el.getBoundingClientRect();
    if (!text || !r.width || !r.height || getComputedStyle(el).display === 'none') return;
    out.push(box(text, r.left - origin.left, r.top - origin.top, r.width, r.height));
  });
  return out;
}
