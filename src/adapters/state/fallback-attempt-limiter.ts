import type { RedisPresence } from './redis-presence.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { Attempt, AttemptLimiter } from '../../core/shared/attempt-limiter.ts';

/**
 * Attempts counted in Redis while this instance has it, in this instance's memory while it has
 * not (docs/design/outages.md): sign-ins and passwords keep answering, each instance then allowing the
 * policy's attempts of its own. The counts in Redis are used again once it is back.
 */
export class FallbackAttemptLimiter implements AttemptLimiter {
  constructor(
    private readonly shared: AttemptLimiter,
    private readonly local: AttemptLimiter,
    private readonly presence: RedisPresence,
  ) {}

  async consume(key: string): Promise<Attempt> {
    if (this.presence.up) {
      try {
        return await this.shared.consume(key);
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
        this.presence.lost();
      }
    }
    return this.local.consume(key);
  }

  async reset(key: string): Promise<void> {
    await this.local.reset(key);
    if (!this.presence.up) return;
    try {
      await this.shared.reset(key);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
    }
  }
}
