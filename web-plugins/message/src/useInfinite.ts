import { useCallback, useEffect, useRef, type RefObject } from 'react';

/** Scroll-to-load of spec 9: within 10 px of the bottom, debounced 100 ms, locked for 1 s after a load. */
export const NEAR_BOTTOM = 10;
export const DEBOUNCE = 100;
export const LOCK = 1000;

export function nearBottom(el: { scrollHeight: number; scrollTop: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM;
}

/**
 * Calls `loadMore` when the scroll container is within 10 px of its end: on scroll, and after each
 * render (a first page too short to scroll loads the next one). Returns the container's `onScroll`.
 */
export function useInfiniteScroll(container: RefObject<HTMLElement | null>, loadMore: () => void, enabled: boolean): () => void {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lockedUntil = useRef(0);
  const latest = useRef({ loadMore, enabled });
  latest.current = { loadMore, enabled };

  const check = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const el = container.current;
      if (!el || !latest.current.enabled || !nearBottom(el)) return;
      const now = Date.now();
      if (now < lockedUntil.current) {
        timer.current = setTimeout(check, lockedUntil.current - now);
        return;
      }
      lockedUntil.current = now + LOCK;
      latest.current.loadMore();
    }, DEBOUNCE);
  }, [container]);

  useEffect(() => {
    if (enabled) check();
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return check;
}
