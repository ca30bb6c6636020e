import type { LinkView } from '../links/link.ts';
import type { LinkHealth } from '../health/health.ts';
import type { Click } from '../clicks/click.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook.ts';
import { envelopeOf, type DeliveryEnvelope } from './webhook-events.ts';
import { clickedItem, clickedPayload, deletedLinkPayload, linkPayload } from './webhook-payloads.ts';

/**
 * A made-up link and click, for the samples no-code tools ask for when a trigger is set up
 * (GET /api/v1/webhooks/sample). They go through the deliveries' own payload builders and the
 * caller's link presenter, so a sample has every key a real delivery has.
 */
const SAMPLE_AT = Date.UTC(2026, 0, 15, 9, 30);
const SAMPLE_DELIVERY_ID = '00000000-0000-4000-8000-000000000000';

function sampleView(health?: LinkHealth): LinkView {
  return {
    link: {
      id: 42,
      accountId: 1,
      domainId: null,
      spaceId: null,
      alias: 'spring-sale',
      url: 'https://example.com/spring-sale',
      title: 'Spring sale',
      socialCard: null,
      pageCard: null,
      targetType: 0,
      targets: { country: null, platform: null, language: null, rotation: null },
      rules: null,
      iosUrl: null,
      androidUrl: null,
      trackConversions: 0,
      lastRotation: 0,
      disabled: 0,
      blockedAt: null,
      privacy: 0,
      privacyPasswordHash: null,
      passwordHash: null,
      expirationUrl: null,
      expirationClicks: null,
      endsAt: null,
      clicks: 17,
      pixelIds: [],
      createdAt: SAMPLE_AT,
      updatedAt: SAMPLE_AT,
    },
    space: null,
    domain: null,
    pixels: [],
    tags: [],
    ...(health ? { health } : {}),
  };
}

const BROKEN: LinkHealth = {
  status: 'broken',
  code: 404,
  reason: 'status',
  checkedAt: SAMPLE_AT,
  brokenSince: SAMPLE_AT,
};
const OK: LinkHealth = { status: 'ok', code: 200, reason: null, checkedAt: SAMPLE_AT, brokenSince: null };

const SAMPLE_CLICK: Click = {
  linkId: 42,
  accountId: 1,
  at: SAMPLE_AT,
  day: '2026-01-15',
  hour: 9,
  visitor: null,
  country: 'DE',
  city: 'Berlin',
  browser: 'Firefox',
  platform: 'Linux',
  device: 'desktop',
  language: 'de',
  referrerHost: 'news.example.org',
  isBot: false,
};

/** The `data` a delivery of the event carries, for the sample link (or click). */
function webhookSample(event: WebhookEvent, present: (view: LinkView) => unknown): unknown {
  switch (event) {
    case 'link.deleted':
      return deletedLinkPayload(sampleView().link);
    case 'link.clicked':
      return clickedPayload([clickedItem(SAMPLE_CLICK)]);
    case 'link.broken':
      return linkPayload(present(sampleView(BROKEN)));
    case 'link.recovered':
      return linkPayload(present(sampleView(OK)));
    case 'link.created':
    case 'link.updated':
    case 'link.expired':
      return linkPayload(present(sampleView()));
  }
}

/** The whole body a json-format webhook receives for the event, around the sample's data. */
export function sampleDelivery(event: WebhookEvent, present: (view: LinkView) => unknown): DeliveryEnvelope {
  return envelopeOf(SAMPLE_DELIVERY_ID, event, SAMPLE_AT, webhookSample(event, present));
}

/** Every event's sample delivery, in the order of WEBHOOK_EVENTS. */
export const sampleDeliveries = (present: (view: LinkView) => unknown): DeliveryEnvelope[] =>
  WEBHOOK_EVENTS.map((event) => sampleDelivery(event, present));
