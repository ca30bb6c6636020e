import { Type, type Static } from '@sinclair/typebox';
import { Enum } from './common.ts';

export const QrQuery = Type.Object({
  format: Enum(['svg', 'png'] as const, { default: 'svg', description: 'Image format' }),
  size: Type.Integer({ minimum: 64, maximum: 2048, default: 300, description: 'Width in pixels (PNG; SVG scales)' }),
});
export type QrQuery = Static<typeof QrQuery>;
