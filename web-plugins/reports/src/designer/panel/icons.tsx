/** Small line icons of the palette and the canvas bar (drawn, so every font shows them). */
import type { ReactElement } from 'react';
import type { PaletteType } from './components';

const P = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.4, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

const SHAPES: Record<PaletteType | 'copy' | 'close', ReactElement> = {
  view: <><path {...P} d="M2 14h12" /><rect {...P} x="3" y="8" width="2.5" height="5" /><rect {...P} x="7" y="4" width="2.5" height="9" /><rect {...P} x="11" y="6" width="2.5" height="7" /></>,
  select: <><rect {...P} x="1.5" y="4" width="13" height="8" rx="1.5" /><path {...P} d="M9.5 7l1.5 1.5L12.5 7" /></>,
  date: <><rect {...P} x="2" y="3" width="12" height="11" rx="1.5" /><path {...P} d="M2 6.5h12M5 1.5v3M11 1.5v3" /></>,
  'number-range': <><rect {...P} x="1" y="5" width="5" height="6" rx="1" /><rect {...P} x="10" y="5" width="5" height="6" rx="1" /><path {...P} d="M7 8h2" /></>,
  input: <><circle {...P} cx="7" cy="7" r="4" /><path {...P} d="M10 10l4 4" /></>,
  search: <><rect {...P} x="1.5" y="4" width="13" height="8" rx="2" /><path {...P} d="M5.5 8h5M8.5 6l2 2-2 2" /></>,
  reset: <><path {...P} d="M3.5 8a4.5 4.5 0 1 0 1.3-3.2" /><path {...P} d="M3.5 2.5v2.8h2.8" /></>,
  export: <><path {...P} d="M8 2v8M5 7l3 3 3-3M3 13h10" /></>,
  'v-text': <><path {...P} d="M3 3.5h10M8 3.5v9.5" /></>,
  picture: <><rect {...P} x="1.5" y="2.5" width="13" height="11" rx="1.5" /><path {...P} d="M2 12l4-4 3 3 2-2 3 3" /><circle {...P} cx="11" cy="5.5" r="1" /></>,
  video: <><rect {...P} x="1.5" y="3" width="13" height="10" rx="1.5" /><path {...P} d="M6.5 6v4l3.5-2z" /></>,
  clock: <><circle {...P} cx="8" cy="8" r="6" /><path {...P} d="M8 4.5V8l2.5 1.5" /></>,
  rect: <rect {...P} x="2" y="3.5" width="12" height="9" rx="1" />,
  'de-tabs': <><path {...P} d="M1.5 13.5v-10h5v2.5h8v7.5z" /><path {...P} d="M6.5 3.5h4v2.5" /></>,
  copy: <><rect {...P} x="5" y="5" width="9" height="9" rx="1.5" /><path {...P} d="M11 5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h2" /></>,
  close: <path {...P} d="M4 4l8 8M12 4l-8 8" />,
};

export function Icon({ name, size = 14 }: { name: keyof typeof SHAPES; size?: number }) {
  return <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden focusable="false" style={{ display: 'block' }}>{SHAPES[name]}</svg>;
}
