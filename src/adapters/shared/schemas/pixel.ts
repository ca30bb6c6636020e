import { Type, type Static } from '@sinclair/typebox';
import { PIXEL_LIMITS, PIXEL_TYPES } from '../../../core/pixels/pixel.ts';
import { Enum, PageQuery, SortQuery, Timestamp } from './common.ts';

const PixelType = Enum(PIXEL_TYPES, { description: 'Vendor of the pixel' });

export const PixelRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    type: PixelType,
    value: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Pixel' },
);

export const PixelBody = Type.Object({
  name: Type.Optional(
    Type.String({ maxLength: PIXEL_LIMITS.nameMax, description: 'Required on create; unique per account' }),
  ),
  type: Type.Optional(PixelType),
  value: Type.Optional(
    Type.String({
      maxLength: PIXEL_LIMITS.valueMax,
      pattern: '^[A-Za-z0-9_-]*$',
      description: "The vendor's pixel id: letters, digits, - and _",
    }),
  ),
});
export type PixelBody = Static<typeof PixelBody>;

export const PixelListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the name' })),
  type: Type.Optional(PixelType),
  sort: SortQuery,
  ...PageQuery,
});
export type PixelListQuery = Static<typeof PixelListQuery>;
