/** What a QR image is drawn from besides its text: every setting that changes its bytes. */
export interface QrSettings {
  /** Width in pixels (PNG; an SVG scales). */
  size: number;
  /** The quiet zone, in modules. */
  margin: number;
  /** #rrggbb (or #rgb, #rrggbbaa) of the modules and of the background. */
  foreground: string;
  background: string;
}

/** The API's code: black on white with the quiet zone of two modules its clients have always had. */
export const API_QR_LOOK = { margin: 2, foreground: '#000000', background: '#ffffff' } as const;

/**
 * qrcode's options for the settings, in one place for the main thread (SVG) and the render
 * threads (PNG), so both draw the same code. Error correction M: a printed code survives a
 * smudge without growing denser than a phone camera reads easily.
 */
export function qrCodeOptions(settings: QrSettings) {
  return {
    errorCorrectionLevel: 'M' as const,
    margin: settings.margin,
    width: settings.size,
    color: { dark: settings.foreground, light: settings.background },
  };
}
