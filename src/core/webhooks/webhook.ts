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

/** How a delivery's body is written: `json` the envelope of docs/api.md §14, `slack` a Slack message. */
export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const WEBHOOK_LIMITS = { perAccount: 20, urlMax: 2048 } as const;

export interface Webhook {
  id: number;
  accountId: number;
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
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

/** A subscriber as a delivery is written for it: the workspace's name goes into chat messages. */
export interface WebhookSubscriber extends WebhookWithSecret {
  workspace: string;
}

export interface WebhookInput {
  url?: string | undefined;
  events?: readonly string[] | undefined;
  format?: string | undefined;
}

/** A change of a webhook: only the fields given change. */
export interface WebhookPatch extends WebhookInput {
  enabled?: boolean | undefined;
}

export const isWebhookFormat = (name: string): name is WebhookFormat =>
  (WEBHOOK_FORMATS as readonly string[]).includes(name);

export const isWebhookEvent = (name: string): name is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(name);
