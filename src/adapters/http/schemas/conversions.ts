import { Type, type Static } from '@sinclair/typebox';
import { IdParams, Nullable, Timestamp } from '../../shared/schemas/common.ts';
import { RULE_LIMITS } from '../../../core/rules/rule.ts';

// Bounds here only keep bodies small; the core's checks name each field (conversion-input.ts).
export const ConversionBody = Type.Object({
  click_id: Type.String({ maxLength: 256, description: 'The lpx_cid the redirect added to the destination' }),
  name: Type.String({ maxLength: 256, description: 'lead, sale, or any name of 1–64 characters' }),
  value: Type.Optional(
    Nullable(
      Type.Number({
        minimum: -1e12,
        maximum: 1e12,
        description: 'What the conversion was worth (at most 10^12 either way)',
      }),
    ),
  ),
  currency: Type.Optional(Nullable(Type.String({ maxLength: 16, description: 'ISO 4217 code, such as EUR' }))),
});
export type ConversionBody = Static<typeof ConversionBody>;

export const ConversionRecord = Type.Object(
  {
    id: Type.Integer(),
    link_id: Type.Integer(),
    click_id: Type.String(),
    rule: Nullable(Type.Integer({ description: 'The rule that decided the click; null: none did (the link’s url)' })),
    variant: Nullable(Type.Integer({ description: 'The split variant drawn, or null' })),
    name: Type.String(),
    value: Nullable(Type.Number()),
    currency: Nullable(Type.String()),
    clicked_at: Timestamp,
    created_at: Timestamp,
  },
  { title: 'Conversion' },
);

const Sums = Type.Object({
  count: Type.Integer(),
  value: Type.Number({ description: 'Values summed as sent (currencies are not converted)' }),
  values: Type.Record(Type.String(), Type.Number(), {
    description:
      'Values summed per ISO 4217 currency, such as {"EUR": 249.5, "USD": 10}; values sent without one are in value only',
  }),
});

const VariantResult = Type.Object(
  {
    rule: Nullable(Type.Integer({ description: 'Rule index; null: clicks no rule decided (the link’s url)' })),
    variant: Nullable(Type.Integer({ description: 'Split variant; null for a plain rule' })),
    url: Nullable(
      Type.String({
        description: 'Where this rule and variant send visitors now; null when the rules no longer have it',
      }),
    ),
    clicks: Type.Integer({ description: 'Human clicks this rule and variant decided' }),
    conversions: Type.Record(Type.String(), Sums, { description: 'By conversion name' }),
    rate: Type.Number({ description: 'Clicks with at least one conversion, over clicks' }),
    p_value: Nullable(
      Type.Number({
        description: 'Two-proportion z-test against the rule’s first variant; null for the first and plain rules',
      }),
    ),
  },
  { title: 'VariantResult' },
);

export const ConversionsEnvelope = Type.Object({ data: Type.Array(VariantResult), status: Type.Literal(200) });

export const WinnerParams = Type.Object({
  id: IdParams.properties.id,
  index: Type.Integer({ minimum: 0, maximum: RULE_LIMITS.rules - 1, description: 'Rule index (0 is the first rule)' }),
});
export type WinnerParams = Static<typeof WinnerParams>;
export const WinnerBody = Type.Object({
  variant: Type.Integer({ minimum: 0, maximum: 255, description: 'The split variant that becomes the rule’s url' }),
});
export type WinnerBody = Static<typeof WinnerBody>;
