import type { Click } from '../clicks/click.ts';
import type { WebhookEvents } from './webhook-events.ts';
import { clickedItem, clickedPayload, type ClickedItem } from './webhook-payloads.ts';

/**
 * Collects the clicks of accounts that listen to `link.clicked` and hands them on once a
 * second, one delivery per webhook with that second's clicks. `take` costs a set lookup for
 * everyone else, so the redirect never waits on webhooks.
 */
export class ClickBatcher {
  private subscribed = new Set<number>();
  private pending = new Map<number, ClickedItem[]>();

  constructor(private readonly events: WebhookEvents) {}

  /** Which accounts listen (read from the store now and then, and told of new webhooks). */
  setSubscribed(accountIds: Iterable<number>): void {
    this.subscribed = new Set(accountIds);
  }

  subscribe(accountId: number): void {
    this.subscribed.add(accountId);
  }

  take(click: Click): void {
    if (!this.subscribed.has(click.accountId)) return;
    let items = this.pending.get(click.accountId);
    if (!items) this.pending.set(click.accountId, (items = []));
    items.push(clickedItem(click));
  }

  /** Turns the clicks taken so far into deliveries. */
  async flush(): Promise<void> {
    const batches = this.pending;
    this.pending = new Map();
    for (const [accountId, clicks] of batches)
      await this.events.emit(accountId, 'link.clicked', null, clickedPayload(clicks));
  }
}
