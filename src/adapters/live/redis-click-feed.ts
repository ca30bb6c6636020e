import type { Redis } from 'ioredis';
import type { ClickFeed, ClickTally, TallyListener } from '../../core/live/click-feed.ts';
import { RedisAccountChannel, type AccountMessages } from './redis-account-channel.ts';
import { decodeTallies, encodeTallies } from './tally-messages.ts';

export interface RedisClickFeedOptions {
  /** Prepended to the channel's name; default 'linkpix:'. */
  prefix?: string;
  /** Failed publishes and the subscriber connection's errors. */
  onError?: (error: unknown) => void;
}

const TALLIES: AccountMessages<ClickTally> = {
  encode: encodeTallies,
  decode(message) {
    const decoded = decodeTallies(message);
    return decoded === null ? null : { from: decoded.from, values: decoded.tallies };
  },
  accountOf: (tally) => tally.accountId,
};

/**
 * The feed of several instances: tallies on one account channel (RedisAccountChannel). A page
 * that missed a tally while Redis was away catches up at its next load.
 */
export class RedisClickFeed implements ClickFeed {
  private readonly channel: RedisAccountChannel<ClickTally>;

  /** Publishes on `redis`, which stays the caller's; the subscriber is a duplicate this feed owns. */
  constructor(redis: Redis, options: RedisClickFeedOptions = {}) {
    const onError = options.onError ?? ((error) => console.error('linkpix: live clicks:', error));
    this.channel = new RedisAccountChannel(redis, `${options.prefix ?? 'linkpix:'}live-clicks`, TALLIES, onError);
  }

  publish(tallies: readonly ClickTally[]): void {
    this.channel.publish(tallies);
  }

  subscribe(accountId: number, listener: TallyListener): () => void {
    return this.channel.subscribe(accountId, listener);
  }

  close(): Promise<void> {
    return this.channel.close();
  }
}
