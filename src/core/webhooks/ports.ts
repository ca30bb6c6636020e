import type { Webhook, WebhookEvent, WebhookFormat, WebhookSubscriber } from './webhook.ts';
import type { CheckedWebhookPatch } from './webhook-rules.ts';

export interface WebhookStore {
  insert(
    accountId: number,
    fields: { url: string; events: WebhookEvent[]; format?: WebhookFormat; secret: string },
    now: number,
  ): Promise<Webhook>;
  /** Sets the fields given; `enabled: false` also drops its pending deliveries. Null: no such webhook. */
  update(accountId: number, id: number, patch: CheckedWebhookPatch, now: number): Promise<Webhook | null>;
  list(accountId: number): Promise<Webhook[]>;
  count(accountId: number): Promise<number>;
  findById(accountId: number, id: number): Promise<Webhook | null>;
  delete(accountId: number, id: number): Promise<boolean>;
  /** The account's live webhooks subscribed to the event, with the workspace's name. */
  subscribers(accountId: number, event: WebhookEvent): Promise<WebhookSubscriber[]>;
  /** Accounts having a live webhook on the event (the clicks tap asks before batching). */
  accountsSubscribed(event: WebhookEvent): Promise<number[]>;
  /** Webhooks disabled since the account was last told; marks them told. */
  takeDisabledNotice(accountId: number): Promise<number[]>;
}

/** One request to make: its body is fixed when enqueued, so every retry sends the same bytes. */
export interface NewDelivery {
  /** The idempotency id: the `linkpix-delivery` header and the body's `id`. */
  id: string;
  webhookId: number;
  event: WebhookEvent;
  /** Deliveries of one link to one webhook go out in the order they were enqueued. */
  linkId: number | null;
  body: string;
}

export interface ClaimedDelivery extends NewDelivery {
  attempts: number;
  url: string;
  secret: string;
}

/** The outbox: deliveries that survive restarts and are shared by every instance. */
export interface DeliveryOutbox {
  enqueue(deliveries: readonly NewDelivery[], now: number): Promise<void>;
  /**
   * Leases up to `limit` due deliveries of live webhooks for `leaseMs` (another instance takes
   * them once the lease runs out), never one of a link while an earlier one of it is pending.
   */
  claim(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Removes the delivery and clears its webhook's failure. */
  delivered(delivery: ClaimedDelivery): Promise<void>;
  /** Due again at `nextAt`; starts the webhook's failure window at `now` unless it has one. Answers the window's start. */
  failed(delivery: ClaimedDelivery, nextAt: number, error: string, now: number): Promise<number>;
  /** Stops the webhook and drops its pending deliveries. */
  disable(webhookId: number, now: number): Promise<void>;
}

/** Sends one signed request; answers the status, or throws when there was no answer (or `stop` was aborted first). */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string, stop?: AbortSignal): Promise<number>;
}

/** Whether a target may be reached: a URL whose host resolves only to refused addresses is not. */
export interface WebhookTargetCheck {
  reachable(url: string): Promise<boolean>;
}

/** A link that has expired, taken to be told once. */
export interface ClaimedExpiry {
  id: number;
  accountId: number;
}

/** Expired links not yet told: each is handed to one claimer only, once, and marked told as it is. */
export interface ExpiryClaims {
  /** Up to `limit` links past their date and up to `limit` that reached their click cap. */
  claim(now: number, limit: number): Promise<ClaimedExpiry[]>;
}
