import QRCode from 'qrcode';
import { effectiveEcc, type QrSettings } from './qr-options.ts';

/** A code's modules and, with a logo, the square of them left clear for it. */
export interface QrLayout {
  /** Modules per side, without the quiet zone. */
  count: number;
  /** Modules per side with the quiet zone on both sides. */
  total: number;
  margin: number;
  /** Whether the module at column x, row y (0-based, inside the quiet zone) is drawn dark. */
  dark(x: number, y: number): boolean;
  /**
   * The corners of a dark module a rounded style rounds, as bits (1 top left, 2 top right,
   * 4 bottom right, 8 bottom left): those whose two neighbours beside them are both light, so
   * a run of modules stays one solid shape and only its outside is rounded.
   */
  corners(x: number, y: number): number;
  /** The cleared square for the logo, in modules from the image's corner; null without a logo. */
  logoBox: { start: number; side: number } | null;
}

// The logo's square spans at most this share of the code's width: about 4 % of its modules, well
// inside the 30 % that level H recovers, so a smudge on top still leaves the code readable.
const LOGO_SHARE = 0.2;

/** Lays the code out once for both drawings (SVG and PNG), so they clear the same modules. */
export function qrLayout(text: string, settings: QrSettings): QrLayout {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: effectiveEcc(settings) });
  const count = modules.size;
  const margin = settings.margin;
  let side = Math.floor(count * LOGO_SHARE);
  // Same parity as the count, so the square sits on the grid in the exact centre.
  if ((count - side) % 2 !== 0) side -= 1;
  const inner = (count - side) / 2;
  const box = settings.logo ? { start: inner + margin, side } : null;
  const cleared = (x: number, y: number) =>
    box !== null && x >= inner && x < inner + side && y >= inner && y < inner + side;
  const dark = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < count && y < count && modules.data[y * count + x] === 1 && !cleared(x, y);
  const corners = (x: number, y: number) => {
    const [up, right, down, left] = [dark(x, y - 1), dark(x + 1, y), dark(x, y + 1), dark(x - 1, y)];
    return (!up && !left ? 1 : 0) | (!up && !right ? 2 : 0) | (!down && !right ? 4 : 0) | (!down && !left ? 8 : 0);
  };
  return { count, total: count + 2 * margin, margin, dark, corners, logoBox: box };
}
