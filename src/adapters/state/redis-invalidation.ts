import type { Redis } from 'ioredis';
import type { RedirectInvalidation } from '../../core/redirect/redirect-events.ts';

export interface RedisInvalidationBusOptions {
  /** Prepended to the default channel name; default 'linkpix:'. */
  prefix?: string;
  /** Default `${prefix}invalidate`. */
  channel?: string;
  /** Failed publishes, subscriber connection errors and throwing handlers end up here. */
  onError?: (error: unknown) => void;
}

/**
 * Broadcasts invalidations to every instance through Redis pub/sub. Local subscribers are also
 * told at once, before the publish: the instance that made a change must not serve the old
 * version while its own message travels (handlers are idempotent, so the echo is harmless).
 * Pub/sub delivers at most once: messages sent while a subscriber is reconnecting are lost, so
 * caches fed by this bus still need a bounded lifetime.
 */
export class RedisInvalidationBus implements RedirectInvalidation {
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private readonly handlers = new Set<RedirectInvalidation>();
  private subscriber: Redis | null = null;
  private subscribing: Promise<void> | null = null;

  /** Publishes on `redis`, which stays the caller's; subscribing opens a duplicate this bus owns. */
  constructor(
    private readonly redis: Redis,
    options: RedisInvalidationBusOptions = {},
  ) {
    this.channel = options.channel ?? `${options.prefix ?? 'linkpix:'}invalidate`;
    this.onError = options.onError ?? ((error) => console.error('linkpix: redis invalidation:', error));
  }

  linkChanged(linkId: number): void {
    for (const handler of this.handlers) this.deliver(handler, 'link', linkId);
    this.redis.publish(this.channel, `link:${linkId}`).catch(this.onError);
  }

  accountChanged(accountId: number): void {
    for (const handler of this.handlers) this.deliver(handler, 'account', accountId);
    this.redis.publish(this.channel, `account:${accountId}`).catch(this.onError);
  }

  /** Resolves once Redis confirmed the subscription, so no later publish can be missed. */
  subscribe(handler: RedirectInvalidation): Promise<void> {
    this.handlers.add(handler);
    this.subscribing ??= this.openSubscriber();
    return this.subscribing;
  }

  /** Closes the subscriber connection; the publishing client is left open. */
  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    this.subscribing = null;
    this.handlers.clear();
    if (subscriber === null) return;
    await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private async openSubscriber(): Promise<void> {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', this.onError);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    try {
      await subscriber.subscribe(this.channel);
    } catch (error) {
      // Let a later subscribe try again instead of handing out this failure forever.
      if (this.subscriber === subscriber) {
        this.subscriber = null;
        this.subscribing = null;
      }
      subscriber.disconnect();
      throw error;
    }
  }

  private receive(message: string): void {
    const colon = message.indexOf(':');
    const kind = message.slice(0, colon);
    const id = Number(message.slice(colon + 1));
    if ((kind !== 'link' && kind !== 'account') || !Number.isSafeInteger(id)) return;
    for (const handler of this.handlers) this.deliver(handler, kind, id);
  }

  private deliver(handler: RedirectInvalidation, kind: 'link' | 'account', id: number): void {
    try {
      if (kind === 'link') handler.linkChanged(id);
      else handler.accountChanged(id);
    } catch (error) {
      this.onError(error);
    }
  }
}
