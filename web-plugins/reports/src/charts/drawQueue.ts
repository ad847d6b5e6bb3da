/**
 * The first draw of a panel's charts, the visible ones first: a chart in the viewport draws at once; the
 * others are queued and drawn once those are painted, in slices of a few charts that leave the page free
 * between them (input, scrolling, frames), so every view is drawn without the user scrolling. A queued chart
 * scrolled into view draws at once.
 */

interface Job {
  node: Element;
  run: () => void;
}

/** How long one slice of queued charts may run before the page gets its turn. */
const SLICE_MS = 30;

const queue: Job[] = [];
let scheduled = false;
let observer: IntersectionObserver | null = null;

/** A failing chart neither stops the queue nor goes unreported. */
function run(job: Job): void {
  try {
    job.run();
  } catch (err) {
    setTimeout(() => {
      throw err;
    });
  }
}

function take(job: Job): void {
  const i = queue.indexOf(job);
  if (i >= 0) queue.splice(i, 1);
  observer?.unobserve(job.node);
}

function drain(): void {
  scheduled = false;
  const end = performance.now() + SLICE_MS;
  while (queue.length) {
    const job = queue[0];
    take(job);
    run(job);
    if (performance.now() >= end) break;
  }
  if (queue.length) {
    scheduled = true;
    setTimeout(drain, 0);
  }
}

/** The first slice waits for the next frame, so the charts in view are painted before the others start. */
function schedule(): void {
  if (scheduled || !queue.length) return;
  scheduled = true;
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (cb: () => void) => setTimeout(cb, 16);
  frame(() => setTimeout(drain, 0));
}

function visible(node: Element): boolean {
  const r = node.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const w = window.innerWidth || document.documentElement.clientWidth;
  const h = window.innerHeight || document.documentElement.clientHeight;
  return r.bottom > 0 && r.right > 0 && r.top < h && r.left < w;
}

function watch(): IntersectionObserver | null {
  if (observer || typeof IntersectionObserver === 'undefined') return observer;
  observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const job = queue.find((j) => j.node === e.target);
      if (job) {
        take(job);
        run(job);
      }
    }
  });
  return observer;
}

let incoming: Job[] = [];

/** The charts asked for in one go (a panel's views commit together) are measured together, then the ones in
 * view drawn: one layout for all of them instead of one per chart after each draw. */
function sort(): void {
  const jobs = incoming;
  incoming = [];
  const shown = jobs.map((j) => visible(j.node));
  jobs.forEach((job, i) => {
    if (shown[i]) run(job);
    else {
      queue.push(job);
      watch()?.observe(job.node);
    }
  });
  schedule();
}

/** Runs `draw` for `node` right away when it is in view, otherwise in a later slice; answers a cancel. */
export function scheduleDraw(node: Element, draw: () => void): () => void {
  if (typeof window === 'undefined') {
    draw();
    return () => undefined;
  }
  const job: Job = { node, run: draw };
  if (!incoming.length) queueMicrotask(sort);
  incoming.push(job);
  return () => {
    incoming = incoming.filter((j) => j !== job);
    take(job);
  };
}
