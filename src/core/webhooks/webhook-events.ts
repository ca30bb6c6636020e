import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { DeliveryOutbox, NewDelivery, WebhookStore } from './ports.ts';
import type { WebhookEvent } from './webhook.ts';

/** The body every delivery carries; `id` is the idempotency id, as in the linkpix-delivery header. */
export function deliveryBody(id: string, event: WebhookEvent, at: number, data: unknown): string {
  return JSON.stringify({ id, type: event, created_at: new Date(at).toISOString(), data });
}

/**
 * Turns what happened to an account's links into deliveries in the outbox, one per subscribed
 * webhook; the dispatcher sends them. A link change calls it in its unit of work, so the
 * deliveries commit with the change. `enqueued` wakes the local dispatcher (the runtime defers
 * it until the unit has committed).
 */
export class WebhookEvents {
  constructor(
    private readonly deps: { store: WebhookStore; outbox: DeliveryOutbox; clock: Clock; enqueued?: () => void },
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
    const deliveries: NewDelivery[] = items.flatMap(({ linkId, data }) =>
      hooks.map((hook) => {
        const id = randomUUID();
        return { id, webhookId: hook.id, event, linkId, body: deliveryBody(id, event, now, data) };
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
