import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../shared/schemas/common.ts';
import { PREVIEW_DAYS_DEFAULT, PREVIEW_DAYS_MAX } from '../../../core/rules/rule-preview.ts';

export const ExplainQuery = Type.Object({
  country: Type.Optional(
    Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2; absent: from ip, else unknown' }),
  ),
  user_agent: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'A User-Agent header: the os, browser, device and bot of the visitor',
    }),
  ),
  language: Type.Optional(Type.String({ maxLength: 256, description: 'An Accept-Language header, or one code' })),
  referrer: Type.Optional(Type.String({ maxLength: 2048, description: 'A Referer URL; absent: none' })),
  query: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: "The visit's query string (URL-encoded once more here), with or without its ?",
    }),
  ),
  ip: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'The client address: ip conditions, and the country when none is given',
    }),
  ),
  at: Type.Optional(
    Type.String({ maxLength: 40, description: 'The instant of the visit, ISO 8601 with an offset; absent: now' }),
  ),
  returning: Type.Optional(
    Type.String({
      maxLength: 5,
      description: "1: the visitor has the link's cookie (a returning visitor); 0 or absent: a first visit",
    }),
  ),
});
export type ExplainQuery = Static<typeof ExplainQuery>;

const TracedCondition = Type.Object({
  condition: Type.String(),
  matched: Type.Boolean(),
  value: Type.Unknown({ description: 'What the visitor showed for it; null: unknown' }),
});

export const ExplainRecord = Type.Object(
  {
    outcome: Type.Union([
      Type.Literal('redirect'),
      Type.Literal('password'),
      Type.Literal('expired'),
      Type.Literal('disabled'),
      Type.Literal('pixels'),
    ]),
    url: Nullable(
      Type.String({ description: 'Where the visit leads (behind a password too); the expiration URL when expired' }),
    ),
    rule: Nullable(Type.Integer({ description: 'The deciding rule; null: the link url or its phpShort targeting' })),
    variant: Nullable(Type.Integer({ description: "The split's variant drawn, when a split decided" })),
    trace: Type.Array(
      Type.Object({
        rule: Type.Integer(),
        name: Nullable(Type.String()),
        matched: Type.Boolean(),
        conditions: Type.Array(TracedCondition),
      }),
    ),
    pixels: Type.Array(Type.Integer(), { description: 'Ids of the pixels that would fire' }),
    counts_click: Type.Boolean(),
  },
  { title: 'Explanation' },
);

export const PreviewBody = Type.Object({
  rules: Type.Union([Type.Array(Type.Unknown()), Type.String({ maxLength: 200_000 }), Type.Null()], {
    description: 'The draft rules, as a link takes them',
  }),
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PREVIEW_DAYS_MAX,
      default: PREVIEW_DAYS_DEFAULT,
      description: 'Days of clicks to replay',
    }),
  ),
});
export type PreviewBody = Static<typeof PreviewBody>;

const PreviewRow = Type.Object({ url: Type.String(), rule: Nullable(Type.Integer()), clicks: Type.Integer() });

export const PreviewRecord = Type.Object(
  {
    clicks: Type.Integer({ description: 'Human clicks replayed' }),
    current: Type.Array(PreviewRow),
    draft: Type.Array(PreviewRow),
    changed: Type.Integer({ description: 'Clicks the draft sends elsewhere' }),
    unknown: Type.Array(Type.String(), {
      description: 'Conditions stored clicks cannot answer, replayed as not holding',
    }),
    days: Type.Integer(),
    since: Nullable(
      Type.String({ description: 'When only the newest clicks were replayed: the instant they start from' }),
    ),
  },
  { title: 'Rules preview' },
);
