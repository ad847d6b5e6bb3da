import { useEffect } from 'react';
import { bus } from '@atrium/sdk';
import { currentWatermark } from './api';
import { WatermarkLayer } from './overlay';

/** The `overlay` slot: draws the tenant's watermark for the signed-in user (the setting applies per user). */
export function Overlay() {
  useEffect(() => {
    const layer = new WatermarkLayer();
    let alive = true;
    const load = async () => {
      try {
        const wm = await currentWatermark();
        if (!alive) return;
        if (wm && wm.isTakeEffect && wm.isView && wm.content) layer.show(wm);
        else layer.hide();
      } catch {
        layer.hide();
      }
    };
    void load();
    const offs = [
      bus.on('watermark:clear', () => layer.hide()),
      bus.on('logout', () => layer.hide()),
      bus.on('watermark:refresh', () => void load()),
      bus.on('tenant:switched', () => void load()),
      bus.on('system:switched', () => void load()),
    ];
    return () => {
      alive = false;
      offs.forEach((off) => off());
      layer.hide();
    };
  }, []);
  return null;
}
