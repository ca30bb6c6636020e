/** `#rrggbb`, as `<input type="color">` sends it. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** WCAG 2.x relative luminance of a `#rrggbb` colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  if (!HEX_COLOUR.test(hex)) throw new RangeError(`not a #rrggbb colour: ${hex}`);
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white); order does not matter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Below this a QR code's colours warn, as WCAG AA does for body text. */
const MIN_CONTRAST = 4.5;

export function hasLowContrast(foreground: string, background: string): boolean {
  return contrastRatio(foreground, background) < MIN_CONTRAST;
}
