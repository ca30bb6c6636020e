/**
 * linkpix's mark, drawn from code: a ring (the link) and a dot (the pixel) on the accent colour.
 * The SVG is the icon browsers scale; the ICO is the same shapes rasterised at start (old
 * browsers and tools ask for /favicon.ico whatever the page says), so nothing is downloaded or
 * kept as a binary file.
 */
export const BRAND_COLOUR = '#0b57d0';
const SIZE = 32;
const RING = { cx: 13, cy: 16, inner: 5, outer: 8.5 };
const DOT = { cx: 23.5, cy: 16, r: 3.5 };
const CORNER = 7;

export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="${BRAND_COLOUR}"/><circle cx="${RING.cx}" cy="${RING.cy}" r="${(RING.inner + RING.outer) / 2}" fill="none" stroke="#fff" stroke-width="${RING.outer - RING.inner}"/><circle cx="${DOT.cx}" cy="${DOT.cy}" r="${DOT.r}" fill="#fff"/></svg>`;

/** The mark with the name beside it, white on the dark bar of /docs. */
export const WORDMARK_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 150 32" width="150" height="32">${LOGO_SVG.replace('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">', '<g>').replace('</svg>', '</g>')}<text x="40" y="23" font-family="system-ui, sans-serif" font-size="22" font-weight="600" fill="#fff">linkpix</text></svg>`;

type Rgba = [number, number, number, number];

function colourAt(x: number, y: number): Rgba | null {
  const dx = Math.max(CORNER - x, 0, x - (SIZE - CORNER));
  const dy = Math.max(CORNER - y, 0, y - (SIZE - CORNER));
  if (dx * dx + dy * dy > CORNER * CORNER) return null;
  const ring = Math.hypot(x - RING.cx, y - RING.cy);
  if ((ring >= RING.inner && ring <= RING.outer) || Math.hypot(x - DOT.cx, y - DOT.cy) <= DOT.r)
    return [255, 255, 255, 255];
  return [0x0b, 0x57, 0xd0, 255];
}

/** One pixel, sampled 4×4 so the edges are smooth: premultiplied sums, then straight colour. */
function pixel(px: number, py: number): Rgba {
  const sum = [0, 0, 0, 0];
  for (let i = 0; i < 16; i++) {
    const c = colourAt(px + ((i % 4) + 0.5) / 4, py + (Math.floor(i / 4) + 0.5) / 4);
    if (c === null) continue;
    for (let k = 0; k < 3; k++) sum[k]! += c[k]!;
    sum[3]! += 255;
  }
  const hits = sum[3]! / 255;
  if (hits === 0) return [0, 0, 0, 0];
  return [Math.round(sum[0]! / hits), Math.round(sum[1]! / hits), Math.round(sum[2]! / hits), Math.round(sum[3]! / 16)];
}

/** A 32×32 ICO: one 32-bit BMP image (BGRA rows bottom-up, then the all-clear AND mask). */
export function faviconIco(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // one bit a pixel, rows padded to 4 bytes
  const image = 40 + pixels + mask;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(1, 2); // type: icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt16LE(1, 10); // colour planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18);
  out.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  out.writeInt32LE(SIZE, 26);
  out.writeInt32LE(SIZE * 2, 30); // the colour rows and the mask's
  out.writeUInt16LE(1, 34);
  out.writeUInt16LE(32, 36);
  out.writeUInt32LE(pixels + mask, 42);
  let at = 62;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y);
      out.writeUInt8(b, at);
      out.writeUInt8(g, at + 1);
      out.writeUInt8(r, at + 2);
      out.writeUInt8(a, at + 3);
      at += 4;
    }
  }
  return out;
}
