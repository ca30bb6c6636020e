import { Type, type Static } from '@sinclair/typebox';
import { QR_ECC_LEVELS, QR_STYLES } from '../../qr/qr-options.ts';
import { Enum } from './common.ts';

export const QrQuery = Type.Object({
  format: Enum(['svg', 'png'] as const, { default: 'svg', description: 'Image format' }),
  size: Type.Integer({ minimum: 64, maximum: 2048, default: 300, description: 'Width in pixels (PNG; SVG scales)' }),
  ecc: Enum(QR_ECC_LEVELS, {
    default: 'M',
    description: 'Error correction: L, M, Q or H (H whenever the link has a logo drawn)',
  }),
  style: Enum(QR_STYLES, { default: 'square', description: 'Modules drawn as squares or rounded squares' }),
  logo: Type.Boolean({
    default: true,
    description: "Draw the link's logo, if it has one (an SVG logo only into an SVG)",
  }),
});
export type QrQuery = Static<typeof QrQuery>;

/** A link's QR settings as the API keeps them: its logo, if it has one (docs/adr/0058). */
export const QrLogoSettings = Type.Object({
  id: Type.Integer({ description: "The link's id" }),
  logo: Type.Union(
    [
      Type.Object({
        type: Enum(['png', 'svg'] as const, { description: 'PNG, or SVG as sanitised' }),
        bytes: Type.Integer({ description: 'Size of the stored file (an SVG after sanitising)' }),
      }),
      Type.Null(),
    ],
    { description: 'Drawn in the centre of the code at level H; null without one' },
  ),
});
export type QrLogoSettings = Static<typeof QrLogoSettings>;
