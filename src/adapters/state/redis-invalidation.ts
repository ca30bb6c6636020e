import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedirectInvalidation } from '../../core/redirect/redirect-events.ts';
import { decodeChange, encodeChange, type Change } from './invalidation-messages.ts';

export interface RedisInvalidationBusOptions {
  /** Prepended to the default channel and counter names; default 'linkpix:'. */
  prefix?: string;
  /** Default `${prefix}invalidate`; the counter is this name with `:version`. */
  channel?: string;
  /** Failed publishes, subscriber connection errors and throwing handlers end up here. */
  onError?: (error: unknown) => void;
  /** Changes kept to publish again after Redis refused them; past it, one "everything" is owed. Default 1000. */
  maxUnsent?: number;
}

/** What a subscriber hears: the port's changes, and "everything" when some may have been lost. */
export interface InvalidationHandler extends RedirectInvalidation {
  everythingChanged(): void;
}

// INCR and PUBLISH in one script: messages carry consecutive numbers, in the order they were
// counted. A counter that is gone (a Redis restarted empty) starts again at a random number, so
// an instance that saw number n before cannot take a new n for the one it saw. The start stays
// below 2^40: Redis's Lua turns a number into text with 14 significant digits, and a larger one
// would reach subscribers rounded (a number skipped, read as messages lost).
const PUBLISH_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[3]) end
local n = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], n .. ' ' .. ARGV[2])
return n`;

const RESEND_MS = 1000;
const CLOSE_WAIT_MS = 1000;
const COUNTER_START_BELOW = 2 ** 40;

/**
 * Broadcasts invalidations to every instance through Redis pub/sub. Local subscribers are also
 * told at once, before the publish: the instance that made a change must not serve the old
 * version while its own message travels (handlers are idempotent, so the echo is harmless).
 *
 * Pub/sub delivers at most once, so nothing is left to it alone:
 * - every message is numbered by a counter in Redis; a subscriber that finds a number skipped,
 *   or, once its subscription is back after a disconnect, a counter that moved past the last
 *   number it heard, tells its handlers everythingChanged();
 * - a change Redis refused to publish is kept (bounded) and published when Redis is back.
 */
export class RedisInvalidationBus implements RedirectInvalidation {
  private readonly channel: string;
  private readonly counter: string;
  private readonly onError: (error: unknown) => void;
  private readonly maxUnsent: number;
  private readonly handlers = new Set<InvalidationHandler>();
  private subscriber: Redis | null = null;
  private subscribing: Promise<void> | null = null;
  /** The last number heard, in sequence; null before the first. */
  private heard: number | null = null;
  /** Changes Redis refused, to publish again once it is ready. */
  private unsent: Change[] = [];
  private owesEverything = false;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** Publishes sent and not yet answered: close() waits for them, so a short-lived process (the CLI) tells its change before it quits. */
  private readonly inFlight = new Set<Promise<void>>();

  /** Publishes on `redis`, which stays the caller's; subscribing opens a duplicate this bus owns. */
  constructor(
    private readonly redis: Redis,
    options: RedisInvalidationBusOptions = {},
  ) {
    this.channel = options.channel ?? `${options.prefix ?? 'linkpix:'}invalidate`;
    this.counter = `${this.channel}:version`;
    this.onError = options.onError ?? ((error) => console.error('linkpix: redis invalidation:', error));
    this.maxUnsent = options.maxUnsent ?? 1000;
    redis.on('ready', this.resend);
  }

  linkChanged(linkId: number, alias?: string): void {
    this.tell({ kind: 'link', id: linkId, alias });
  }

  accountChanged(accountId: number): void {
    this.tell({ kind: 'account', id: accountId });
  }

  /** Resolves once Redis confirmed the subscription, so no later publish can be missed. */
  subscribe(handler: InvalidationHandler): Promise<void> {
    this.handlers.add(handler);
    this.subscribing ??= this.openSubscriber();
    return this.subscribing;
  }

  /** Waits for the publishes in flight, then closes the subscriber connection; the publishing client is left open. */
  async close(): Promise<void> {
    // Bounded: a Redis that is away fails them within its retries, but a close must not wait on that.
    await Promise.race([
      Promise.all(this.inFlight),
      new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
    ]);
    this.closed = true;
    this.redis.off('ready', this.resend);
    if (this.retry !== null) clearTimeout(this.retry);
    const subscriber = this.subscriber;
    this.subscriber = null;
    this.subscribing = null;
    this.handlers.clear();
    if (subscriber === null) return;
    await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private tell(change: Change): void {
    for (const handler of this.handlers) this.deliver(handler, change);
    this.publish(change);
  }

  private publish(change: Change): void {
    const sent: Promise<void> = this.redis
      .eval(PUBLISH_SCRIPT, 1, this.counter, this.channel, encodeChange(change), randomInt(COUNTER_START_BELOW))
      .then(
        () => undefined,
        (error: unknown) => {
          this.onError(error);
          this.keep(change);
        },
      )
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  private keep(change: Change): void {
    if (this.closed) return;
    if (this.unsent.length < this.maxUnsent) this.unsent.push(change);
    else {
      this.unsent = [];
      this.owesEverything = true;
    }
    // Published at the next 'ready'; when Redis is ready already (the command failed alone), a
    // little later, so that a refusal that lasts is not retried in a loop.
    if (this.redis.status === 'ready' && this.retry === null) {
      this.retry = setTimeout(this.resend, RESEND_MS);
      this.retry.unref();
    }
  }

  private readonly resend = (): void => {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    const owed: Change[] = this.owesEverything ? [{ kind: 'all' }] : this.unsent;
    this.unsent = [];
    this.owesEverything = false;
    for (const change of owed) this.publish(change);
  };

  private async openSubscriber(): Promise<void> {
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', this.onError);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    // ioredis subscribes again on every reconnection; what was published meanwhile is checked
    // once that subscription is confirmed (a SUBSCRIBE is answered after the ones before it).
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (!connectedBefore) return void (connectedBefore = true);
      subscriber
        .subscribe(this.channel)
        .then(() => this.catchUp())
        .catch(this.onError);
    });
    try {
      await subscriber.subscribe(this.channel);
      // Unless messages arrived first: they are numbered from there.
      const now = await this.current();
      this.heard ??= now;
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

  private async current(): Promise<number | null> {
    const value = await this.redis.get(this.counter);
    return value === null ? null : Number(value);
  }

  /** After a reconnection: a counter that moved while this instance was away means lost messages. */
  private async catchUp(): Promise<void> {
    const before = this.heard;
    const now = await this.current();
    if (now === this.heard) return;
    // Messages heard while the counter was being read went past it, in sequence (receive() checks).
    if (this.heard !== before && now !== null && this.heard !== null && now < this.heard) return;
    this.heard = now;
    this.everything();
  }

  private receive(message: string): void {
    const space = message.indexOf(' ');
    const n = space > 0 ? Number(message.slice(0, space)) : NaN;
    // An unnumbered message is an earlier version's (a rolling upgrade): told as it is.
    const change = decodeChange(Number.isSafeInteger(n) ? message.slice(space + 1) : message);
    if (change === null) return;
    if (Number.isSafeInteger(n)) {
      // A number skipped is a message lost. One at or below the last (a counter that started
      // over) is told as it is; the next reconnection's check covers what that hides.
      const skipped = this.heard !== null && n > this.heard + 1;
      if (this.heard === null || n > this.heard) this.heard = n;
      if (skipped) return this.everything();
    }
    for (const handler of this.handlers) this.deliver(handler, change);
  }

  private everything(): void {
    for (const handler of this.handlers) this.deliver(handler, { kind: 'all' });
  }

  private deliver(handler: InvalidationHandler, change: Change): void {
    try {
      if (change.kind === 'link') handler.linkChanged(change.id, change.alias);
      else if (change.kind === 'account') handler.accountChanged(change.id);
      else handler.everythingChanged();
    } catch (error) {
      this.onError(error);
    }
  }
}
