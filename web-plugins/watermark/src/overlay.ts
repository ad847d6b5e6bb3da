/**
 * The watermark layer: a fixed element over the whole page (z-index 100000, pointer events off) whose
 * background repeats a drawn tile. It is re-created when removed from the page or when its style or
 * attributes are changed (a MutationObserver, plus a check every 500 ms for anything the observer
 * missed), redrawn on resize, and removed on sign-out.
 */
import { tileUrl, TILE, type Look } from './draw';

export const Z_INDEX = 100000;
export const CHECK_EVERY = 500;
const RESIZE_THROTTLE = 300;
export const MARK = 'data-atrium-watermark';

export class WatermarkLayer {
  private el: HTMLDivElement | null = null;
  private observer: MutationObserver | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private look: Look | null = null;
  private url = '';
  private style = '';

  show(look: Look): void {
    this.look = look;
    this.draw();
    if (!this.timer) this.timer = setInterval(() => this.check(), CHECK_EVERY);
    window.addEventListener('resize', this.onResize);
  }

  hide(): void {
    this.look = null;
    clearInterval(this.timer);
    this.timer = undefined;
    clearTimeout(this.resizeTimer);
    window.removeEventListener('resize', this.onResize);
    this.observer?.disconnect();
    this.observer = null;
    this.el?.remove();
    this.el = null;
  }

  private onResize = (): void => {
    if (this.resizeTimer) return;
    this.resizeTimer = setTimeout(() => {
      this.resizeTimer = undefined;
      if (this.look) this.draw();
    }, RESIZE_THROTTLE);
  };

  /** Draws the tile and (re)creates the layer. */
  private draw(): void {
    if (!this.look) return;
    this.url = tileUrl(this.look);
    this.create();
  }

  private create(): void {
    this.observer?.disconnect();
    this.el?.remove();
    const el = document.createElement('div');
    el.setAttribute(MARK, '');
    el.setAttribute('aria-hidden', 'true');
    // inline and !important: page style sheets cannot hide or move the layer
    el.style.cssText = [
      'position:fixed', 'inset:0', 'width:100vw', 'height:100vh', `z-index:${Z_INDEX}`, 'pointer-events:none',
      `background-image:url("${this.url}")`, 'background-repeat:repeat', `background-size:${TILE}px ${TILE}px`,
      'display:block', 'visibility:visible', 'opacity:1', 'margin:0', 'padding:0', 'transform:none',
    ].map((rule) => `${rule} !important`).join(';');
    document.body.appendChild(el);
    this.el = el;
    this.style = el.getAttribute('style') || '';
    this.observer = new MutationObserver((records) => {
      const touched = records.some((r) => (r.type === 'attributes' && r.target === el)
        || (r.type === 'childList' && Array.from(r.removedNodes).includes(el)));
      if (touched) this.create();
    });
    this.observer.observe(el, { attributes: true });
    this.observer.observe(document.body, { childList: true });
  }

  /** The periodic check: the layer must be in the page, untouched. */
  private check(): void {
    if (!this.look) return;
    const el = this.el;
    if (!el || !el.isConnected || el.parentElement !== document.body || el.getAttribute('style') !== this.style
      || el.hidden || el.className) {
      this.create();
    }
  }
}
