import { jsonBody, type DeliveryRenderer } from '../../core/webhooks/webhook-events.ts';
import { slackMessage } from './slack-message.ts';

/** A delivery's body in its webhook's format (docs/api.md §14). */
export const renderDelivery: DeliveryRenderer = (envelope, hook) =>
  hook.format === 'slack' ? JSON.stringify(slackMessage(envelope, hook.workspace)) : jsonBody(envelope, hook);
