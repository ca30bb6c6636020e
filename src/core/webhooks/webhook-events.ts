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
 * webhook; the dispatcher sends them. `enqueued` wakes the local dispatcher.
 */
export class WebhookEvents {
  constructor(private readonly deps: { store: WebhookStore; outbox: DeliveryOutbox; clock: Clock; enqueued?: () => void }) {}

  async emit(accountId: number, event: WebhookEvent, linkId: number | null, data: unknown): Promise<void> {
    const hooks = await this.deps.store.subscribers(accountId, event);
    if (hooks.length === 0) return;
    const now = this.deps.clock.now();
    const deliveries: NewDelivery[] = hooks.map((hook) => {
      const id = randomUUID();
      return { id, webhookId: hook.id, event, linkId, body: deliveryBody(id, event, now, data) };
    });
    await this.deps.outbox.enqueue(deliveries, now);
    this.deps.enqueued?.();
  }
}
