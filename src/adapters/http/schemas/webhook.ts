import { Type, type Static } from '@sinclair/typebox';
import { WEBHOOK_EVENTS, WEBHOOK_FORMATS, WEBHOOK_LIMITS } from '../../../core/webhooks/webhook.ts';
import { Enum, Nullable, Timestamp } from '../../shared/schemas/common.ts';

const Event = Enum(WEBHOOK_EVENTS, { description: 'An event name' });
const Format = Enum(WEBHOOK_FORMATS, {
  description: 'How deliveries are written: json (the envelope of docs/api.md §14) or slack (a Slack message)',
});

export const WebhookRecord = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    events: Type.Array(Event),
    format: Format,
    enabled: Type.Boolean({
      description: 'false once turned off, or once its deliveries failed for 24 h; PATCH true to resume',
    }),
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

const Url = Type.String({ maxLength: WEBHOOK_LIMITS.urlMax, description: 'Absolute http(s) URL that receives POSTs' });
const Events = Type.Array(Event, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: 'Events to receive',
});

export const WebhookBody = Type.Object({
  url: Url,
  events: Events,
  format: Type.Optional(Format),
});
export type WebhookBody = Static<typeof WebhookBody>;

/** A change: any of the fields, each checked as on creation; the others stay. */
export const WebhookPatchBody = Type.Object({
  url: Type.Optional(Url),
  events: Type.Optional(Events),
  format: Type.Optional(Format),
  enabled: Type.Optional(
    Type.Boolean({ description: 'false stops deliveries (pending ones are dropped); true resumes' }),
  ),
});
export type WebhookPatchBody = Static<typeof WebhookPatchBody>;

export const WebhookSampleQuery = Type.Object({
  event: Type.Optional(Event),
});
export type WebhookSampleQuery = Static<typeof WebhookSampleQuery>;

/** A delivery as a json-format webhook receives it. */
export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'The idempotency id, also in the linkpix-delivery header' }),
    type: Event,
    created_at: Timestamp,
    data: Type.Unknown({ description: "The event's data: {link} for link events, {clicks} for link.clicked" }),
  },
  { title: 'WebhookDelivery' },
);
