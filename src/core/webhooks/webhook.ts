/** The events a webhook may subscribe to. */
export const WEBHOOK_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.expired',
  'link.clicked',
  'link.broken',
  'link.recovered',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_LIMITS = { perAccount: 20, urlMax: 2048 } as const;

export interface Webhook {
  id: number;
  accountId: number;
  url: string;
  events: WebhookEvent[];
  createdAt: number;
  /** Set once its deliveries failed for WEBHOOK_FAILURE_WINDOW: nothing more is sent. */
  disabledAt: number | null;
  /** The first failure since the last success; null while it delivers. */
  failingSince: number | null;
}

/** What the signer needs, never shown again after creation. */
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export interface WebhookInput {
  url?: string | undefined;
  events?: readonly string[] | undefined;
}

export const isWebhookEvent = (name: string): name is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(name);
