import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SessionEnds } from '../../core/live/session-ends.ts';
import { AccountListeners } from './account-listeners.ts';
import { ChannelSubscriber } from './channel-subscriber.ts';

export interface RedisSessionEndsOptions {
  /** Prepended to the channel's name; default 'linkpix:'. */
  prefix?: string;
  onError?: (error: unknown) => void;
}

/** `{from, accountId}`: the sender (to drop its own echo) and whose sessions ended. */
function decode(message: string): { from: string; accountId: number } | null {
  try {
    const { from, accountId } = JSON.parse(message) as Record<string, unknown>;
    return typeof from === 'string' && typeof accountId === 'number' && Number.isSafeInteger(accountId) && accountId > 0 ? { from, accountId } : null;
  } catch {
    return null;
  }
}

/**
 * Session ends across instances, as RedisClickFeed carries clicks: one channel, one subscriber
 * connection per instance opened at its first listener (a browser's live stream), filtered by
 * account in memory. This instance's own ends reach its listeners at once. At most once: a lost
 * message leaves the stream to its heartbeat's check, as before.
 */
export class RedisSessionEnds implements SessionEnds {
  private readonly id = randomBytes(8).toString('hex');
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private readonly listeners: AccountListeners<null>;
  private readonly subscriber: ChannelSubscriber;
  private closed = false;

  /** Publishes on `redis`, which stays the caller's; the subscriber is a duplicate this owns. */
  constructor(
    private readonly redis: Redis,
    options: RedisSessionEndsOptions = {},
  ) {
    this.channel = `${options.prefix ?? 'linkpix:'}live-session-ends`;
    this.onError = options.onError ?? ((error) => console.error('linkpix: session ends:', error));
    this.listeners = new AccountListeners(this.onError);
    this.subscriber = new ChannelSubscriber(redis, this.channel, this.onError, (message) => {
      const decoded = decode(message);
      if (decoded !== null && decoded.from !== this.id) this.listeners.send(decoded.accountId, null);
    });
  }

  publish(accountId: number): void {
    if (this.closed) return;
    this.listeners.send(accountId, null);
    if (this.redis.status !== 'ready') return;
    this.redis.publish(this.channel, JSON.stringify({ from: this.id, accountId })).catch(this.onError);
  }

  subscribe(accountId: number, listener: () => void): () => void {
    if (!this.closed) this.subscriber.open();
    return this.listeners.add(accountId, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.subscriber.close();
  }
}
