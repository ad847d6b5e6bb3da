/**
 * The whole diagram in view: bpmn-js's own `zoom('fit-viewport')` puts the drawing's top-left corner on the
 * canvas's edge (labels above the first row are cut) and under the palette, and it fits against the size the
 * container had at import time (none yet, when the page is still laying out). Here the diagram is fitted
 * into the canvas less a margin all round and less the palette's width on the left, never zoomed in past
 * 100 %, and fitted again when the container's size changes, until the user moves or zooms the view.
 */

/** The free space kept around the diagram, in screen pixels. */
export const FIT_MARGIN = 24;

type Canvas = any;

/** How far from the container's left edge the palette reaches (0 without a palette). */
function paletteInset(container: HTMLElement): number {
  const palette = container.querySelector('.djs-palette') as HTMLElement | null;
  if (!palette || palette.offsetParent === null) return 0;
  const box = palette.getBoundingClientRect();
  return Math.max(0, box.right - container.getBoundingClientRect().left);
}

/** Fit the diagram into the canvas with a margin, right of the palette. False when the canvas has no size yet
 * or the diagram is empty (nothing was changed). */
export function fitDiagram(canvas: Canvas, container: HTMLElement, margin = FIT_MARGIN): boolean {
  canvas.resized(); // the palette takes one or two columns for the new height first
  const { width, height } = canvas.getSize();
  const inner = canvas.viewbox().inner;
  if (!width || !height || !inner?.width || !inner?.height) return false;
  const left = paletteInset(container) + margin;
  const free = { width: width - left - margin, height: height - 2 * margin };
  if (free.width <= 0 || free.height <= 0) return false;
  const scale = Math.min(1, free.width / inner.width, free.height / inner.height);
  canvas.viewbox({ x: inner.x - left / scale, y: inner.y - margin / scale, width: width / scale, height: height / scale });
  return true;
}

/** Fit now and whenever the container changes size, until the user scrolls or zooms; `refit` fits again (a
 * newly imported diagram) and resumes following the size. Answers the handle; `stop` ends the watching. */
export function keepFitted(canvas: Canvas, eventBus: any, container: HTMLElement): { refit: () => void; stop: () => void } {
  let own = false;
  let touched = false;
  const fit = () => {
    if (touched) return;
    own = true;
    try { fitDiagram(canvas, container); } finally { own = false; }
  };
  const onChange = () => { if (!own) touched = true; };
  eventBus.on('canvas.viewbox.changing', onChange);
  let last = '';
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => {
    const size = `${container.clientWidth}x${container.clientHeight}`;
    if (size !== last) { last = size; fit(); }
  });
  observer?.observe(container);
  fit();
  return {
    refit: () => { touched = false; fit(); },
    stop: () => { observer?.disconnect(); eventBus.off('canvas.viewbox.changing', onChange); },
  };
}
