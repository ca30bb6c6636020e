import type { Click } from '../clicks/click.ts';
import type { WebhookEvents } from './webhook-events.ts';

/** What a `link.clicked` delivery tells of one click. */
interface ClickedItem {
  link_id: number;
  at: string;
  country: string | null;
  platform: string | null;
  browser: string | null;
  device: string | null;
  referrer: string | null;
  bot: boolean;
}

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
    items.push({
      link_id: click.linkId,
      at: new Date(click.at).toISOString(),
      country: click.country,
      platform: click.platform,
      browser: click.browser,
      device: click.device,
      referrer: click.referrerHost,
      bot: click.isBot,
    });
  }

  /** Turns the clicks taken so far into deliveries. */
  async flush(): Promise<void> {
    const batches = this.pending;
    this.pending = new Map();
    for (const [accountId, clicks] of batches) await this.events.emit(accountId, 'link.clicked', null, { clicks });
  }
}
