import { PNG } from 'pngjs';
import { qrLayout } from './qr-layout.ts';
import { ROUNDED_RADIUS } from './qr-svg.ts';
import type { QrSettings } from './qr-options.ts';

type Rgba = [number, number, number, number];

/** #rgb, #rrggbb or #rrggbbaa as bytes (qrcode's colour forms). */
function rgbaOf(hex: string): Rgba {
  let h = hex.replace(/^#/, '');
  if (h.length === 3 || h.length === 4) h = [...h].map((c) => c + c).join('');
  if (h.length === 6) h += 'ff';
  if (!/^[0-9a-fA-F]{8}$/.test(h)) throw new RangeError(`not a colour: ${hex}`);
  return [0, 2, 4, 6].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgba;
}

/** Whether a point (fx, fy in 0..1) of a dark module is inked: all of it but its rounded corners (qr-layout.ts). */
function inked(fx: number, fy: number, corners: number): boolean {
  if (corners === 0) return true;
  const bit = fy < 0.5 ? (fx < 0.5 ? 1 : 2) : fx < 0.5 ? 8 : 4;
  if ((corners & bit) === 0) return true;
  const r = ROUNDED_RADIUS;
  const dx = Math.max(0, Math.abs(fx - 0.5) - (0.5 - r));
  const dy = Math.max(0, Math.abs(fy - 0.5) - (0.5 - r));
  return dx * dx + dy * dy <= r * r;
}

/**
 * The code as a PNG for what qrcode does not draw (rounded modules, a PNG logo), sampled as
 * qrcode samples its own: `size` pixels wide, each pixel the module under its corner. Runs in
 * a render thread (qr-png-worker.ts).
 */
export function drawPng(text: string, settings: QrSettings): Buffer {
  const layout = qrLayout(text, settings);
  const size = settings.size;
  const scale = size / layout.total;
  const rounded = settings.style === 'rounded';
  const fg = rgbaOf(settings.foreground);
  const bg = rgbaOf(settings.background);
  const png = new PNG({ width: size, height: size });
  const out = png.data;
  for (let py = 0; py < size; py++) {
    const my = py / scale - layout.margin;
    const row = Math.floor(my);
    for (let px = 0; px < size; px++) {
      const mx = px / scale - layout.margin;
      const col = Math.floor(mx);
      const dark =
        col >= 0 &&
        row >= 0 &&
        col < layout.count &&
        row < layout.count &&
        layout.dark(col, row) &&
        (!rounded || inked(mx - col, my - row, layout.corners(col, row)));
      out.set(dark ? fg : bg, (py * size + px) * 4);
    }
  }
  if (settings.logo && layout.logoBox) {
    if (settings.logo.type !== 'png') throw new RangeError('an SVG logo is not drawn into a PNG');
    const pad = Math.min(0.5, layout.logoBox.side / 10);
    const start = Math.round((layout.logoBox.start + pad) * scale);
    const side = Math.round((layout.logoBox.side - 2 * pad) * scale);
    composite(png, PNG.sync.read(Buffer.from(settings.logo.bytes)), start, side);
  }
  return PNG.sync.write(png);
}

/** Draws the logo fitted (aspect kept) and centred in the square at (start, start) of `side` pixels, over what is there. */
function composite(target: PNG, logo: PNG, start: number, side: number): void {
  const fit = Math.min(side / logo.width, side / logo.height);
  const w = Math.max(1, Math.round(logo.width * fit));
  const h = Math.max(1, Math.round(logo.height * fit));
  const left = start + Math.floor((side - w) / 2);
  const top = start + Math.floor((side - h) / 2);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(logo.height - 1, Math.floor(y / fit));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(logo.width - 1, Math.floor(x / fit));
      const s = (sy * logo.width + sx) * 4;
      const d = ((top + y) * target.width + left + x) * 4;
      const a = (logo.data[s + 3] ?? 0) / 255;
      for (let c = 0; c < 3; c++)
        target.data[d + c] = Math.round((logo.data[s + c] ?? 0) * a + (target.data[d + c] ?? 0) * (1 - a));
      target.data[d + 3] = Math.round(255 * a + (target.data[d + 3] ?? 0) * (1 - a));
    }
  }
}
