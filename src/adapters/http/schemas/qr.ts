import { Type, type Static } from '@sinclair/typebox';
import { Enum } from '../../shared/schemas/common.ts';

/** A link's QR settings as the API keeps them: its logo, if it has one (docs/design/qr.md). */
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
