/** A chart's box as its options are built for: unknown until measured. */
export type PlotSize = { width?: number; height?: number };

/** Before the first measure: the options take their defaults. */
export const NO_SIZE: PlotSize = {};

const step = (n: number) => Math.max(10, Math.floor(n / 10) * 10);

/** A box's size as options are built for, in 10-px steps; undefined when it is not laid out. */
export function plotSizeOf(box: { width: number; height: number }): PlotSize | undefined {
  return box.width > 0 && box.height > 0 ? { width: step(box.width), height: step(box.height) } : undefined;
}

/** What a chart was last drawn from: the size taken at its first draw, arriving as state, draws nothing again. */
export type DrawnFrom = { view: unknown; data: unknown; build?: unknown; size: PlotSize };

export function drawnFrom(last: DrawnFrom | null, now: DrawnFrom): boolean {
  return !!last && last.view === now.view && last.data === now.data && last.build === now.build
    && last.size.width === now.size.width && last.size.height === now.size.height;
}

/** Watches a chart's box and reports its size in 10-px steps, so the chart is built again for a real change
 * of size and not for a pixel's jitter. The first size comes with the observer's first notice, once the page
 * is laid out: read then, it costs no layout of its own. `onResize` runs first on every change the observer
 * sees. Answers the way to stop watching. */
export function watchPlotSize(
  node: HTMLElement,
  setSize: (update: (s: PlotSize) => PlotSize) => void,
  onResize?: () => void,
): () => void {
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  const measure = () => {
    const width = step(node.clientWidth);
    const height = step(node.clientHeight);
    setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
  };
  const ro = new ResizeObserver(() => {
    onResize?.();
    measure();
  });
  ro.observe(node);
  return () => ro.disconnect();
}
