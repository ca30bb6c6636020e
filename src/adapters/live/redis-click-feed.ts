import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ClickFeed, ClickTally, TallyListener } from '../../core/live/click-feed.ts';
import { AccountListeners } from './account-listeners.ts';
import { ChannelSubscriber } from './channel-subscriber.ts';
import { decodeTallies, encodeTallies } from './tally-messages.ts';

export interface RedisClickFeedOptions {
  /** Prepended to the channel's name; default 'linkpix:'. */
  prefix?: string;
  /** Failed publishes and the subscriber connection's errors. */
  onError?: (error: unknown) => void;
}

/**
 * The feed of several instances: every instance publishes its tallies on one channel and hears
 * everyone's on one subscriber connection, opened at the first listener, however many browsers
 * listen. This instance's own tallies reach its listeners at once, not through Redis; the echo
 * is recognised by the sender's id and dropped. Pub/sub delivers at most once, as the port says:
 * while Redis is away tallies are not queued (a page catches up at its next load), and ioredis
 * subscribes again when it reconnects.
 */
export class RedisClickFeed implements ClickFeed {
  private readonly id = randomBytes(8).toString('hex');
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private readonly listeners: AccountListeners<ClickTally>;
  private readonly subscriber: ChannelSubscriber;
  private closed = false;

  /** Publishes on `redis`, which stays the caller's; the subscriber is a duplicate this feed owns. */
  constructor(
    private readonly redis: Redis,
    options: RedisClickFeedOptions = {},
  ) {
    this.channel = `${options.prefix ?? 'linkpix:'}live-clicks`;
    this.onError = options.onError ?? ((error) => console.error('linkpix: live clicks:', error));
    this.listeners = new AccountListeners(this.onError);
    this.subscriber = new ChannelSubscriber(redis, this.channel, this.onError, (message) => {
      const decoded = decodeTallies(message);
      if (decoded === null || decoded.from === this.id) return;
      for (const tally of decoded.tallies) this.listeners.send(tally.accountId, tally);
    });
  }

  publish(tallies: readonly ClickTally[]): void {
    if (tallies.length === 0 || this.closed) return;
    for (const tally of tallies) this.listeners.send(tally.accountId, tally);
    // Not left in ioredis's offline queue: a tally is worth something for a moment only.
    if (this.redis.status !== 'ready') return;
    this.redis.publish(this.channel, encodeTallies(this.id, tallies)).catch(this.onError);
  }

  subscribe(accountId: number, listener: TallyListener): () => void {
    if (!this.closed) this.subscriber.open();
    return this.listeners.add(accountId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.subscriber.close();
  }
}
