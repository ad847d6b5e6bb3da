import { useEffect } from 'react';
import { store } from '../store';

export const MOBILE_WIDTH = 992;

/** Mobile or desktop by width; re-evaluated on resize (throttled 300 ms) unless the page is hidden. */
export function useDevice(): void {
  useEffect(() => {
    const evaluate = () => {
      if (document.hidden) return;
      const mobile = window.innerWidth < MOBILE_WIDTH;
      const device = mobile ? 'mobile' : 'desktop';
      if (store.get().device !== device) {
        // On mobile the sidebar closes without animation.
        store.set(mobile ? { device, sidebarOpened: false } : { device });
      }
    };
    evaluate();
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      const now = Date.now();
      const wait = 300 - (now - last);
      clearTimeout(timer);
      if (wait <= 0) {
        last = now;
        evaluate();
      } else {
        timer = setTimeout(() => {
          last = Date.now();
          evaluate();
        }, wait);
      }
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      clearTimeout(timer);
    };
  }, []);
}
