import { Type, type Static } from '@sinclair/typebox';
import { INTEGRATION_TYPES } from '../../../core/integrations/integration.ts';
import { Enum, Timestamp } from '../../shared/schemas/common.ts';

export const IntegrationRecord = Type.Object(
  {
    id: Type.Integer(),
    type: Enum(INTEGRATION_TYPES, { description: 'The sender: stripe or shopify' }),
    endpoint_url: Type.String({ description: 'Where the sender posts its events; give it to Stripe or Shopify' }),
    created_at: Timestamp,
  },
  { title: 'Integration' },
);

/** Checked by the core (each bad field named), so the schema only documents it. */
export const IntegrationBody = Type.Object({
  type: Type.Optional(Enum(INTEGRATION_TYPES, { description: 'The sender' })),
  secret: Type.Optional(
    Type.String({
      maxLength: 255,
      description: "The sender's signing secret (Stripe's whsec_…, Shopify's app secret)",
    }),
  ),
});
export type IntegrationBody = Static<typeof IntegrationBody>;
