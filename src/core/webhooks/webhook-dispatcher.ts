import type { Clock } from '../shared/clock.ts';
import type { ClaimedDelivery, DeliveryOutbox, WebhookSender } from './ports.ts';
import { FAILURE_WINDOW_MS, retryDelayMs } from './retry-policy.ts';
import { signatureHeader } from './signature.ts';

export interface DispatcherOptions {
  /** How long a claimed delivery is this instance's before another may take it. */
  leaseMs: number;
  /** Deliveries claimed (and sent at once) per round. */
  batch: number;
}

/**
 * Sends due deliveries from the outbox: signed, at least once (a delivery leaves the outbox only
 * after a 2xx), retried with growing waits; a webhook failing for a whole FAILURE_WINDOW_MS is
 * disabled.
 */
export class WebhookDispatcher {
  constructor(
    private readonly deps: {
      outbox: DeliveryOutbox;
      sender: WebhookSender;
      clock: Clock;
      onError?: (error: unknown) => void;
    },
    private readonly options: DispatcherOptions,
  ) {}

  /**
   * One round: answers how many deliveries were attempted (a full batch means more may be due).
   * `stop` ends the requests in flight (a server stopping does not wait for slow receivers): a
   * delivery cut short is not counted as a failure; it stays leased, and is sent again, by any
   * instance, once its lease runs out.
   */
  async deliverDue(stop?: AbortSignal): Promise<number> {
    const claimed = await this.deps.outbox.claim(this.deps.clock.now(), this.options.leaseMs, this.options.batch);
    await Promise.all(claimed.map((d) => this.attempt(d, stop)));
    return claimed.length;
  }

  private async attempt(delivery: ClaimedDelivery, stop: AbortSignal | undefined): Promise<void> {
    const sentAt = this.deps.clock.now();
    const headers = {
      'content-type': 'application/json',
      'linkpix-delivery': delivery.id,
      'linkpix-event': delivery.event,
      'linkpix-signature': signatureHeader(delivery.secret, delivery.body, Math.floor(sentAt / 1000)),
    };
    let outcome: string;
    try {
      const status = await this.deps.sender.send(delivery.url, headers, delivery.body, stop);
      if (status >= 200 && status < 300) {
        await this.deps.outbox.delivered(delivery);
        return;
      }
      outcome = `answered ${status}`;
    } catch (error) {
      if (stop?.aborted) return;
      outcome = error instanceof Error ? error.message : String(error);
    }
    const now = this.deps.clock.now();
    const failingSince = await this.deps.outbox.failed(
      delivery,
      now + retryDelayMs(delivery.attempts + 1),
      outcome.slice(0, 255),
      now,
    );
    if (now - failingSince >= FAILURE_WINDOW_MS) await this.deps.outbox.disable(delivery.webhookId, now);
  }
}
