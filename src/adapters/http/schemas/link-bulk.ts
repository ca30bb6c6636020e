import { Type, type Static } from '@sinclair/typebox';
import { LINK_LIMITS } from '../../../core/links/link-input.ts';
import { Enum, Id, Nullable } from '../../shared/schemas/common.ts';
import { LinkBody, LinkListQuery, LinkRecord } from '../../shared/schemas/link.ts';

/** Links one bulk create takes (api.md §12). */
const BULK_CREATE_MAX = 1000;
/** Ids one bulk change or delete names; a filter reaches any number. */
const BULK_IDS_MAX = 1000;

export const LinkBulkCreateBody = Type.Object({
  links: Type.Array(LinkBody, {
    maxItems: BULK_CREATE_MAX,
    description: `Up to ${BULK_CREATE_MAX} links, each with the create fields`,
  }),
});

const BulkItemCreated = Type.Object({ status: Type.Literal(201), data: LinkRecord });
const BulkItemRefused = Type.Object({
  status: Type.Literal(422),
  message: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'Each bad field of this link, with its messages',
  }),
});

export const LinkBulkCreateEnvelope = Type.Object({
  data: Type.Array(Type.Union([BulkItemCreated, BulkItemRefused]), {
    description: "One entry per link sent, in the request's order",
  }),
  status: Type.Literal(200),
});

/** The list's filters (api.md §5), without its order and paging. */
export const LinkBulkFilter = Type.Omit(LinkListQuery, ['sort', 'page', 'per_page']);
export type LinkBulkFilter = Static<typeof LinkBulkFilter>;

const Target = {
  ids: Type.Optional(
    Type.Array(Id(), {
      minItems: 1,
      maxItems: BULK_IDS_MAX,
      description: "The account's link ids (another account's are skipped)",
    }),
  ),
  filter: Type.Optional(LinkBulkFilter),
};

export const LinkBulkDeleteBody = Type.Object(Target);
export type LinkBulkDeleteBody = Static<typeof LinkBulkDeleteBody>;

const BULK_CHANGES = ['move', 'enable', 'disable', 'set_pixels', 'clear_pixels'] as const;

export const LinkBulkUpdateBody = Type.Object({
  ...Target,
  action: Enum(BULK_CHANGES, {
    description: 'move (to `space`), enable, disable, set_pixels (to `pixels`), clear_pixels',
  }),
  space: Type.Optional(Nullable(Id('move: the space to move to; null: no space'))),
  pixels: Type.Optional(
    Type.Array(Id(), { maxItems: LINK_LIMITS.pixelsMax, description: "set_pixels: the account's pixel ids" }),
  ),
});
export type LinkBulkUpdateBody = Static<typeof LinkBulkUpdateBody>;

export const LinkBulkCountEnvelope = Type.Object({
  data: Type.Object({ count: Type.Integer({ description: 'Links changed or deleted' }) }),
  status: Type.Literal(200),
});

export const LinkExportQuery = Type.Object({
  format: Enum(['csv', 'json'] as const, { default: 'csv', description: 'csv or json (api.md §13)' }),
  ...LinkBulkFilter.properties,
});
export type LinkExportQuery = Static<typeof LinkExportQuery>;
