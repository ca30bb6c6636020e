import { Type, type Static } from '@sinclair/typebox';
import { UTM_LIMITS } from '../../../core/utm/utm-params.ts';
import { Nullable, PageQuery, SortQuery, Timestamp } from './common.ts';

const param = (what: string) =>
  Type.Optional(
    Nullable(
      Type.String({
        maxLength: UTM_LIMITS.valueMax,
        description: `${what}; empty or null: the template leaves it out (kept when not sent on update)`,
      }),
    ),
  );

export const UtmTemplateRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    utm_source: Type.String(),
    utm_medium: Type.String(),
    utm_campaign: Type.String(),
    utm_term: Type.String(),
    utm_content: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'UtmTemplate', description: "A parameter the template leaves out is ''." },
);

export const UtmTemplateBody = Type.Object({
  name: Type.Optional(
    Type.String({
      maxLength: UTM_LIMITS.nameMax,
      description: 'Required on create; unique per account, ignoring case',
    }),
  ),
  utm_source: param('The referrer (google, newsletter)'),
  utm_medium: param('The medium (cpc, email)'),
  utm_campaign: param('The campaign'),
  utm_term: param('The paid search term'),
  utm_content: param('What was clicked, to tell apart links to the same place'),
});
export type UtmTemplateBody = Static<typeof UtmTemplateBody>;

export const UtmTemplateListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive text in the name' })),
  sort: SortQuery,
  ...PageQuery,
});
export type UtmTemplateListQuery = Static<typeof UtmTemplateListQuery>;
