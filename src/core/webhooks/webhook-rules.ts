import type { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import {
  isWebhookEvent,
  isWebhookFormat,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookInput,
  type WebhookPatch,
} from './webhook.ts';

// Whatever schemes links may use, a webhook is an HTTP POST.
const webhookUrls = new UrlPolicy(['http', 'https']);

export interface CheckedWebhook {
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
}

/** What a change sets: the fields it gave, each checked as on creation. */
export interface CheckedWebhookPatch {
  url?: string;
  events?: WebhookEvent[];
  format?: WebhookFormat;
  enabled?: boolean;
}

/** The pure rules of a new webhook: an absolute http(s) URL, at least one known event, a known format (json by default). */
export function checkWebhookInput(input: WebhookInput, bag: FieldErrorBag): CheckedWebhook | null {
  const url = checkUrl(input.url, bag);
  const events = checkEvents(input.events, bag);
  const format = input.format === undefined ? 'json' : checkFormat(input.format, bag);
  if (url === undefined || events === undefined || format === undefined) return null;
  return { url, events, format };
}

/** The same rules for a change, on the fields it names; nothing named is a change of nothing. */
export function checkWebhookPatch(input: WebhookPatch, bag: FieldErrorBag): CheckedWebhookPatch {
  const patch: CheckedWebhookPatch = {};
  if (input.url !== undefined) {
    const url = checkUrl(input.url, bag);
    if (url !== undefined) patch.url = url;
  }
  if (input.events !== undefined) {
    const events = checkEvents(input.events, bag);
    if (events !== undefined) patch.events = events;
  }
  if (input.format !== undefined) {
    const format = checkFormat(input.format, bag);
    if (format !== undefined) patch.format = format;
  }
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  return patch;
}

function checkUrl(url: string | undefined, bag: FieldErrorBag): string | undefined {
  if (url === undefined || url.trim() === '') {
    bag.add('url', messages.required('url'));
    return undefined;
  }
  return webhookUrls.check(bag, 'url', url);
}

function checkEvents(given: readonly string[] | undefined, bag: FieldErrorBag): WebhookEvent[] | undefined {
  const events = [...new Set(given ?? [])];
  if (events.length === 0) bag.add('events', messages.required('events'));
  else if (!events.every(isWebhookEvent)) bag.add('events', messages.selected('events'));
  else return events;
  return undefined;
}

function checkFormat(format: string, bag: FieldErrorBag): WebhookFormat | undefined {
  if (isWebhookFormat(format)) return format;
  bag.add('format', messages.selected('format'));
  return undefined;
}
