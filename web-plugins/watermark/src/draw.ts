/** Drawing one watermark tile (spec 9: a 250 x 250 canvas, 18 px text), repeated over the page. */
export const TILE = 250;
export const DEFAULT_FONT_SIZE = 18;

export interface Look {
  content: string;
  fwFont?: string;
  fwFontSize?: number;
  fwColor?: string;
  fwRotationAngle?: number;
  fwTransparent?: number;
}

/** Splits the text into lines that fit the tile's width. */
function lines(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const ch of Array.from(text)) {
    if (ctx.measureText(line + ch).width > width && line) {
      out.push(line);
      line = ch.trim() ? ch : '';
    } else {
      line += ch;
    }
  }
  if (line) out.push(line);
  return out.slice(0, 6);
}

/** A PNG data URL of one tile. */
export function tileUrl(look: Look, ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1): string {
  const canvas = document.createElement('canvas');
  canvas.width = TILE * ratio;
  canvas.height = TILE * ratio;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  ctx.scale(ratio, ratio);
  const size = look.fwFontSize || DEFAULT_FONT_SIZE;
  ctx.font = `${size}px ${look.fwFont ? `"${look.fwFont.replace(/"/g, '')}", ` : ''}sans-serif`;
  ctx.fillStyle = look.fwColor || '#000000';
  ctx.globalAlpha = Math.max(0, Math.min(1, 1 - (look.fwTransparent ?? 85) / 100));
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.translate(TILE / 2, TILE / 2);
  ctx.rotate(((look.fwRotationAngle ?? -20) * Math.PI) / 180);
  const text = lines(ctx, look.content, TILE - 20);
  const step = size * 1.4;
  text.forEach((l, i) => ctx.fillText(l, 0, (i - (text.length - 1) / 2) * step));
  return canvas.toDataURL('image/png');
}
