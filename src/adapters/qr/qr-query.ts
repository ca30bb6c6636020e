import { Type, type Static } from '@sinclair/typebox';
import { QR_ECC_LEVELS, QR_STYLES } from './qr-options.ts';
import { Enum } from '../shared/schemas/common.ts';

/** The query a link's QR image is asked with: the API's GET …/qr and the web app's QR page. */
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
