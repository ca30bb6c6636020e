import type { Webhook } from '../../../core/webhooks/webhook.ts';
import { iso, isoOrNull } from '../../shared/presenters/records.ts';

export const webhookRecord = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  format: w.format,
  enabled: w.disabledAt === null,
  disabled_at: isoOrNull(w.disabledAt),
  failing_since: isoOrNull(w.failingSince),
  created_at: iso(w.createdAt),
});
