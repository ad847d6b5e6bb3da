/**
 * When a panel's charts draw. A chart in the window draws at once (the charts asked for together are measured
 * together, then drawn: one layout for all of them); a chart near the window draws as soon as it comes that
 * near, unless a panel is still opening (`holdIdleDraws`: its first data not all there, or the views in its
 * window not drawn yet): the window's charts come first then. The others wait: once no panel is opening, they
 * are drawn one at a time when the page is idle, nearest first, so a chart scrolled to is drawn already or
 * draws then, and neither the first paint nor the data calls wait for charts nobody looks at.
 */

/** A chart's box as measured with the others drawn beside it (no layout of its own before its draw). */
export interface DrawBox {
  width: number;
  height: number;
}

interface Job {
  node: Element;
  run: (box: DrawBox) => void;
  /** How far from its scroll box the observer last saw it; undefined until seen, or when not laid out. */
  distance?: number;
  observer?: IntersectionObserver;
}

/** How far beyond what its scroll box shows a chart counts as near (above and below, a share of the box's height). */
export const NEAR = '50% 0px';
/** The idle time left that a background draw needs to start. */
const IDLE_MIN_MS = 10;
/** A background draw waits for idle time no longer than this (then one chart draws anyway). */
const IDLE_WAIT_MS = 500;
/** Where the browser has no idle callbacks: the pause before each chart drawn in the background. */
const IDLE_FALLBACK_MS = 100;
/** An opening panel keeps the charts near its window waiting for idle time no longer than this. */
const OPENING_WAIT_MS = 2000;

const waiting: Job[] = [];
let incoming: Job[] = [];
let holds = 0;
let idleScheduled = false;
/** One observer per scroll box (null: the window): "near" is near what the user scrolls. */
const observers = new Map<Element | null, IntersectionObserver>();
/** Jobs whose turn came already: drawn with the next batch wherever they are. */
const nowJobs = new WeakSet<Job>();

/** A failing chart neither stops the others nor goes unreported. */
function run(job: Job, box: DrawBox): void {
  try {
    job.run(box);
  } catch (err) {
    setTimeout(() => {
      throw err;
    });
  }
}

/** All boxes read first, then all charts drawn: one layout for the lot instead of one per chart. */
function drawAll(jobs: Job[]): void {
  const boxes = jobs.map((j) => ({ width: j.node.clientWidth, height: j.node.clientHeight }));
  jobs.forEach((job, i) => run(job, boxes[i]));
}

function take(job: Job): void {
  const i = waiting.indexOf(job);
  if (i >= 0) waiting.splice(i, 1);
  job.observer?.unobserve(job.node);
}

function inWindow(node: Element): boolean {
  const r = node.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const width = window.innerWidth || document.documentElement.clientWidth;
  const height = window.innerHeight || document.documentElement.clientHeight;
  return r.bottom > 0 && r.right > 0 && r.top < height && r.left < width;
}

function distanceOf(e: IntersectionObserverEntry): number | undefined {
  const r = e.boundingClientRect;
  if (r.width <= 0 || r.height <= 0) return undefined;
  const top = e.rootBounds?.top ?? 0;
  const bottom = e.rootBounds?.bottom ?? window.innerHeight;
  return r.top >= bottom ? r.top - bottom : r.bottom <= top ? top - r.bottom : 0;
}

/** The box that scrolls `node`: its nearest ancestor that scrolls vertically, or null for the window. */
function scrollBox(node: Element): Element | null {
  for (let n = node.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(n).overflowY)) return n;
  }
  return null;
}

function watch(node: Element): IntersectionObserver | undefined {
  if (typeof IntersectionObserver === 'undefined') return undefined;
  const root = scrollBox(node);
  let observer = observers.get(root);
  if (observer) return observer;
  observer = new IntersectionObserver(
    (entries) => {
      const near: Job[] = [];
      for (const e of entries) {
        const job = waiting.find((j) => j.node === e.target);
        if (!job) continue;
        job.distance = distanceOf(e);
        if (e.isIntersecting && (holds === 0 || inWindow(job.node))) {
          take(job);
          near.push(job);
        }
      }
      drawAll(near);
      scheduleIdle();
    },
    { root, rootMargin: NEAR },
  );
  observers.set(root, observer);
  return observer;
}

/** The waiting chart nearest the window when the observer last saw it, of those laid out. */
function nearest(): Job | undefined {
  let best: Job | undefined;
  for (const job of waiting) if (job.distance !== undefined && (!best || job.distance < best.distance!)) best = job;
  return best;
}

/** `cb` when the page is idle, with how much idle time is left (none: it waited `wait` ms, long enough). */
function whenIdle(cb: (timeLeft: () => number, overdue: boolean) => void, wait = IDLE_WAIT_MS): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => cb(() => deadline.timeRemaining(), deadline.didTimeout), { timeout: wait });
  } else setTimeout(() => cb(() => 0, true), IDLE_FALLBACK_MS);
}

/** Settles the first time the page is idle (or after `OPENING_WAIT_MS` anyway): a panel that opens has drawn
 * the views in its window by then. */
export function pageIdle(): Promise<void> {
  return new Promise((resolve) => whenIdle(() => resolve(), OPENING_WAIT_MS));
}

/** One chart's turn per idle period, the nearest: what a turn costs (a view's render, its chart's draw)
 * comes after the callback, so a second turn would not be paid for by this idle time. */
function drawIdle(timeLeft: () => number, overdue: boolean): void {
  idleScheduled = false;
  if (holds > 0) return;
  if (overdue || timeLeft() >= IDLE_MIN_MS) {
    const job = nearest();
    if (!job) return;
    take(job);
    drawAll([job]);
  }
  scheduleIdle();
}

function scheduleIdle(): void {
  if (idleScheduled || holds > 0 || !waiting.some((j) => j.distance !== undefined)) return;
  idleScheduled = true;
  whenIdle(drawIdle);
}

/** The charts asked for in one go (a panel's views commit together) are measured together, then the ones in
 * the window (or asked for `now`) drawn. */
function sort(): void {
  const jobs = incoming;
  incoming = [];
  const shown = jobs.filter((j) => nowJobs.has(j) || inWindow(j.node));
  for (const job of jobs) {
    nowJobs.delete(job);
    if (shown.includes(job)) continue;
    waiting.push(job);
    job.observer = watch(job.node);
    job.observer?.observe(job.node);
  }
  drawAll(shown);
}


/** Holds back the charts drawn near the window or in idle time until `until` settles (a panel's opening). */
export function holdIdleDraws(until: Promise<unknown>): void {
  holds += 1;
  const release = () => {
    holds -= 1;
    // what came into the window meanwhile draws now; what is only near waits for idle time, nearest first
    if (holds === 0) {
      const shown = waiting.filter((j) => j.distance === 0 && inWindow(j.node));
      shown.forEach(take);
      drawAll(shown);
    }
    scheduleIdle();
  };
  until.then(release, release);
}

/** Runs `draw` for `node` right away when it is in the window (or `now`: its turn came already), otherwise
 * when it comes near or the page is idle; answers a cancel. */
export function scheduleDraw(node: Element, draw: (box: DrawBox) => void, now = false): () => void {
  if (typeof window === 'undefined') {
    draw({ width: 0, height: 0 });
    return () => undefined;
  }
  const job: Job = { node, run: draw };
  if (now) nowJobs.add(job);
  if (!incoming.length) queueMicrotask(sort);
  incoming.push(job);
  return () => {
    incoming = incoming.filter((j) => j !== job);
    take(job);
  };
}
