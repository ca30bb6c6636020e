import { qrLayout } from './qr-layout.ts';
import type { QrSettings } from './qr-options.ts';

/** A rounded corner's radius, in modules: a module alone is a dot, a run of them a bar with round ends. */
export const ROUNDED_RADIUS = 0.5;

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** One module clockwise from its top edge; `corners` (qr-layout.ts) says which are rounded. */
function modulePath(x: number, y: number, corners: number): string {
  if (corners === 0) return `M${x} ${y}h1v1h-1z`;
  const [tl, tr, br, bl] = [1, 2, 4, 8].map((bit) => (corners & bit ? ROUNDED_RADIUS : 0)) as [
    number,
    number,
    number,
    number,
  ];
  const arc = (r: number, dx: number, dy: number) => (r === 0 ? '' : `a${r} ${r} 0 0 1 ${dx * r} ${dy * r}`);
  return `M${x + tl} ${y}H${x + 1 - tr}${arc(tr, 1, 1)}V${y + 1 - br}${arc(br, -1, 1)}H${x + bl}${arc(bl, -1, -1)}V${y + tl}${arc(tl, 1, -1)}z`;
}

/**
 * The code as SVG for what qrcode does not draw (rounded modules, a logo): one path of the
 * modules over the background, and the logo as a data: URI image, which an SVG shown as an image
 * may load (it loads nothing from elsewhere).
 */
export function drawSvg(text: string, settings: QrSettings): string {
  const layout = qrLayout(text, settings);
  const rounded = settings.style === 'rounded';
  const parts: string[] = [];
  for (let y = 0; y < layout.count; y++) {
    for (let x = 0; x < layout.count; x++)
      if (layout.dark(x, y))
        parts.push(modulePath(x + layout.margin, y + layout.margin, rounded ? layout.corners(x, y) : 0));
  }
  const t = layout.total;
  const logo =
    settings.logo && layout.logoBox ? logoImage(settings.logo.type, settings.logo.bytes, layout.logoBox) : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${t} ${t}" width="${settings.size}" height="${settings.size}">` +
    `<path fill="${escapeAttr(settings.background)}" d="M0 0h${t}v${t}H0z"/>` +
    `<path fill="${escapeAttr(settings.foreground)}" d="${parts.join('')}"/>${logo}</svg>\n`
  );
}

function logoImage(type: 'png' | 'svg', bytes: Uint8Array, box: { start: number; side: number }): string {
  // A little of the cleared square stays empty round the logo, so it does not touch a module.
  const pad = Math.min(0.5, box.side / 10);
  const uri = `data:${type === 'png' ? 'image/png' : 'image/svg+xml'};base64,${Buffer.from(bytes).toString('base64')}`;
  return `<image href="${uri}" x="${box.start + pad}" y="${box.start + pad}" width="${box.side - 2 * pad}" height="${box.side - 2 * pad}" preserveAspectRatio="xMidYMid meet"/>`;
}
