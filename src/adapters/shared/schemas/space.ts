import { Type, type Static } from '@sinclair/typebox';
import { SPACE_LIMITS } from '../../../core/spaces/space.ts';
import { PageQuery, SortQuery, Timestamp } from './common.ts';

export const SpaceRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.Integer({ minimum: SPACE_LIMITS.colorMin, maximum: SPACE_LIMITS.colorMax }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Space' },
);

export const SpaceBody = Type.Object({
  name: Type.Optional(
    Type.String({ maxLength: SPACE_LIMITS.nameMax, description: 'Required on create; unique per account' }),
  ),
  color: Type.Optional(
    Type.Integer({
      minimum: SPACE_LIMITS.colorMin,
      maximum: SPACE_LIMITS.colorMax,
      description: 'Palette slot 1..6 (default 1)',
    }),
  ),
});
export type SpaceBody = Static<typeof SpaceBody>;

export const SpaceListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the name' })),
  sort: SortQuery,
  ...PageQuery,
});
export type SpaceListQuery = Static<typeof SpaceListQuery>;
