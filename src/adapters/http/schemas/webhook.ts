import { Type, type Static } from '@sinclair/typebox';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '../../../core/webhooks/webhook.ts';
import { Enum, Nullable, Timestamp } from '../../shared/schemas/common.ts';

const Event = Enum(WEBHOOK_EVENTS, { description: 'An event name' });

export const WebhookRecord = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    events: Type.Array(Event),
    enabled: Type.Boolean({ description: 'false once its deliveries failed for 24 h; create another to resume' }),
    disabled_at: Nullable(Timestamp),
    failing_since: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'Webhook' },
);

/** The creation's answer: the only time the secret is shown. */
export const CreatedWebhookRecord = Type.Composite(
  [
    WebhookRecord,
    Type.Object({ secret: Type.String({ description: 'Signs every delivery (linkpix-signature); shown this once' }) }),
  ],
  { title: 'CreatedWebhook' },
);

export const WebhookBody = Type.Object({
  url: Type.String({ maxLength: WEBHOOK_LIMITS.urlMax, description: 'Absolute http(s) URL that receives POSTs' }),
  events: Type.Array(Event, {
    minItems: 1,
    maxItems: WEBHOOK_EVENTS.length,
    uniqueItems: true,
    description: 'Events to receive',
  }),
});
export type WebhookBody = Static<typeof WebhookBody>;
