import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { DeliveryOutbox, NewDelivery, WebhookStore } from './ports.ts';
import type { WebhookEvent, WebhookSubscriber } from './webhook.ts';

/** What every delivery tells; `id` is the idempotency id, as in the linkpix-delivery header. */
export interface DeliveryEnvelope {
  id: string;
  type: WebhookEvent;
  created_at: string;
  data: unknown;
}

export const envelopeOf = (id: string, type: WebhookEvent, at: number, data: unknown): DeliveryEnvelope => ({
  id,
  type,
  created_at: new Date(at).toISOString(),
  data,
});

/** Writes a delivery's body for its webhook (its format); the json format is the envelope itself. */
export type DeliveryRenderer = (envelope: DeliveryEnvelope, hook: WebhookSubscriber) => string;

export const jsonBody: DeliveryRenderer = (envelope) => JSON.stringify(envelope);

/**
 * Turns what happened to an account's links into deliveries in the outbox, one per subscribed
 * webhook; the dispatcher sends them. A link change calls it in its unit of work, so the
 * deliveries commit with the change. `enqueued` wakes the local dispatcher (the runtime defers
 * it until the unit has committed).
 */
export class WebhookEvents {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      outbox: DeliveryOutbox;
      clock: Clock;
      /** Absent: every webhook gets the JSON envelope. */
      render?: DeliveryRenderer;
      enqueued?: () => void;
    },
  ) {}

  async emit(accountId: number, event: WebhookEvent, linkId: number | null, data: unknown): Promise<void> {
    await this.emitMany(accountId, event, [{ linkId, data }]);
  }

  /** Events of one kind for many links (a bulk change, an import's batch): the subscribers are read once. */
  async emitMany(
    accountId: number,
    event: WebhookEvent,
    items: ReadonlyArray<{ linkId: number | null; data: unknown }>,
  ): Promise<void> {
    if (items.length === 0) return;
    const hooks = await this.deps.store.subscribers(accountId, event);
    if (hooks.length === 0) return;
    const now = this.deps.clock.now();
    const render = this.deps.render ?? jsonBody;
    const deliveries: NewDelivery[] = items.flatMap(({ linkId, data }) =>
      hooks.map((hook) => {
        const id = randomUUID();
        return { id, webhookId: hook.id, event, linkId, body: render(envelopeOf(id, event, now, data), hook) };
      }),
    );
    await this.deps.outbox.enqueue(deliveries, now);
    this.deps.enqueued?.();
  }

  /** Whether the account has a live webhook on the event. */
  async listens(accountId: number, event: WebhookEvent): Promise<boolean> {
    return (await this.deps.store.subscribers(accountId, event)).length > 0;
  }
}
