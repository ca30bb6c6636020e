import { Type, type Static } from '@sinclair/typebox';
import { TAG_COLOURS, TAG_LIMITS } from '../../../core/tags/tag.ts';
import { Enum, Timestamp } from '../../shared/schemas/common.ts';

const colour = Enum(TAG_COLOURS, { description: `One of ${TAG_COLOURS.join(', ')}` });

export const TagRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: colour,
    links: Type.Integer({ description: "How many of the account's links carry the tag" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Tag' },
);

/** Rename or recolour; colour is checked by the core's rules so a bad one is named among the rest. */
export const TagBody = Type.Object({
  name: Type.Optional(
    Type.String({
      maxLength: 256,
      description: `1–${TAG_LIMITS.nameMax} characters, unique in the account ignoring case`,
    }),
  ),
  color: Type.Optional(Type.String({ maxLength: 16, description: `One of ${TAG_COLOURS.join(', ')}` })),
});
export type TagBody = Static<typeof TagBody>;
