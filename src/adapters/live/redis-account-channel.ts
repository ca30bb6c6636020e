import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AccountListeners } from './account-listeners.ts';
import { ChannelSubscriber } from './channel-subscriber.ts';

/** How one feed's values cross Redis: the sending instance's id beside them, and whose each is. */
export interface AccountMessages<T> {
  encode(from: string, values: readonly T[]): string;
  /** A message of another instance (of this version or a later one), or null when it is not one. */
  decode(message: string): { from: string; values: T[] } | null;
  accountOf(value: T): number;
}

/**
 * What the live feeds of several instances share (RedisClickFeed, RedisSessionEnds): every
 * instance publishes on one channel and hears everyone's on one subscriber connection, opened
 * at its first listener, however many browsers listen, and hands each value to the listeners of
 * its account. This instance's own values reach its listeners at once, not through Redis; the
 * echo is recognised by the sender's id and dropped. At most once: while Redis is away nothing
 * is queued, and ioredis subscribes again when it reconnects.
 */
export class RedisAccountChannel<T> {
  private readonly id = randomBytes(8).toString('hex');
  private readonly listeners: AccountListeners<T>;
  private readonly subscriber: ChannelSubscriber;
  private closed = false;

  /** Publishes on `redis`, which stays the caller's; the subscriber is a duplicate this owns. */
  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly messages: AccountMessages<T>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.listeners = new AccountListeners(onError);
    this.subscriber = new ChannelSubscriber(redis, channel, onError, (message) => {
      const decoded = messages.decode(message);
      if (decoded === null || decoded.from === this.id) return;
      this.deliver(decoded.values);
    });
  }

  /** Never throws and never waits. */
  publish(values: readonly T[]): void {
    if (values.length === 0 || this.closed) return;
    this.deliver(values);
    // Not left in ioredis's offline queue: the values are worth something for a moment only.
    if (this.redis.status !== 'ready') return;
    this.redis.publish(this.channel, this.messages.encode(this.id, values)).catch(this.onError);
  }

  subscribe(accountId: number, listener: (value: T) => void): () => void {
    if (!this.closed) this.subscriber.open();
    return this.listeners.add(accountId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.subscriber.close();
  }

  private deliver(values: readonly T[]): void {
    for (const value of values) this.listeners.send(this.messages.accountOf(value), value);
  }
}
