import type { Redis } from 'ioredis';
import type { SessionEnds } from '../../core/live/session-ends.ts';
import { RedisAccountChannel, type AccountMessages } from './redis-account-channel.ts';

export interface RedisSessionEndsOptions {
  /** Prepended to the channel's name; default 'linkpix:'. */
  prefix?: string;
  onError?: (error: unknown) => void;
}

/** `{from, accountId}`: one account a message, as `publish` sends them. */
const ENDS: AccountMessages<number> = {
  encode: (from, accountIds) => JSON.stringify({ from, accountId: accountIds[0] }),
  decode(message) {
    try {
      const { from, accountId } = JSON.parse(message) as Record<string, unknown>;
      return typeof from === 'string' &&
        typeof accountId === 'number' &&
        Number.isSafeInteger(accountId) &&
        accountId > 0
        ? { from, values: [accountId] }
        : null;
    } catch {
      return null;
    }
  },
  accountOf: (accountId) => accountId,
};

/**
 * Session ends across instances, on one account channel as the click feed's tallies
 * (RedisAccountChannel). A lost message leaves the stream to its heartbeat's check, as before.
 */
export class RedisSessionEnds implements SessionEnds {
  private readonly channel: RedisAccountChannel<number>;

  /** Publishes on `redis`, which stays the caller's; the subscriber is a duplicate this owns. */
  constructor(redis: Redis, options: RedisSessionEndsOptions = {}) {
    const onError = options.onError ?? ((error) => console.error('linkpix: session ends:', error));
    this.channel = new RedisAccountChannel(redis, `${options.prefix ?? 'linkpix:'}live-session-ends`, ENDS, onError);
  }

  publish(accountId: number): void {
    this.channel.publish([accountId]);
  }

  subscribe(accountId: number, listener: () => void): () => void {
    return this.channel.subscribe(accountId, () => listener());
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
