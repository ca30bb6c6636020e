import type { QrLogo } from '../images/qr-logo-input.ts';

/** Error-correction levels, from the least (L, about 7 % of the code may be lost) to the most (H, 30 %). */
export const QR_ECC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type QrEcc = (typeof QR_ECC_LEVELS)[number];

/** How a dark module is drawn: a square, or a square with rounded corners. */
export const QR_STYLES = ['square', 'rounded'] as const;
export type QrStyle = (typeof QR_STYLES)[number];

/** What a QR image is drawn from besides its text: every setting that changes its bytes. */
export interface QrSettings {
  /** Width in pixels (PNG; an SVG scales). */
  size: number;
  /** The quiet zone, in modules. */
  margin: number;
  /** #rrggbb (or #rgb, #rrggbbaa) of the modules and of the background. */
  foreground: string;
  background: string;
  /** Absent: M, what every code had before the level could be chosen. */
  ecc?: QrEcc | undefined;
  style?: QrStyle | undefined;
  /** Drawn in the centre; the level is then H whatever was asked. */
  logo?: QrLogo | null | undefined;
}

/** The API's code: black on white with the quiet zone of two modules its clients have always had. */
export const API_QR_LOOK = { margin: 2, foreground: '#000000', background: '#ffffff' } as const;

/**
 * The level a code is drawn at. A logo hides modules, so it raises the level to H, the only one
 * that recovers what a logo of a fifth of the code's width covers with room to spare for a smudge.
 * Without one, M: a printed code survives a smudge without growing denser than a phone reads easily.
 */
export function effectiveEcc(settings: QrSettings): QrEcc {
  return settings.logo ? 'H' : (settings.ecc ?? 'M');
}

/** Drawn by qrcode itself (square modules, no logo), so the bytes stay what they always were. */
export function isPlain(settings: QrSettings): boolean {
  return (settings.style ?? 'square') === 'square' && !settings.logo;
}

/**
 * qrcode's options for the settings, in one place for the main thread (SVG) and the render
 * threads (PNG), so both draw the same code.
 */
export function qrCodeOptions(settings: QrSettings) {
  return {
    errorCorrectionLevel: effectiveEcc(settings),
    margin: settings.margin,
    width: settings.size,
    color: { dark: settings.foreground, light: settings.background },
  };
}
