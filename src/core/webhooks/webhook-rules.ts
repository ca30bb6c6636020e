import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import { isWebhookEvent, type WebhookEvent, type WebhookInput } from './webhook.ts';

// Whatever schemes links may use, a webhook is an HTTP POST.
const webhookUrls = new UrlPolicy(['http', 'https']);

export interface CheckedWebhook {
  url: string;
  events: WebhookEvent[];
}

/** The pure rules of a new webhook: an absolute http(s) URL and at least one known event. */
export function checkWebhookInput(input: WebhookInput, bag: FieldErrorBag): CheckedWebhook | null {
  let url: string | undefined;
  if (input.url === undefined || input.url.trim() === '') bag.add('url', messages.required('url'));
  else url = webhookUrls.check(bag, 'url', input.url);
  const events = [...new Set(input.events ?? [])];
  if (events.length === 0) bag.add('events', messages.required('events'));
  else if (!events.every(isWebhookEvent)) bag.add('events', messages.selected('events'));
  if (url === undefined || bag.has('events')) return null;
  return { url, events: events as WebhookEvent[] };
}
