import type { Redis } from 'ioredis';

/**
 * Whether this instance has Redis now, and since when it has not: what the fallbacks of the
 * shared state (caps, rotation, limits) ask before choosing Redis or the database or memory.
 */
export class RedisPresence {
  /** Bumped at each (re)connection: per-link state taken back from the database is taken again. */
  generation = 0;
  /** Bumped at each loss: per-link state handed to the database is handed again. */
  losses = 1;
  /** When this instance last lost Redis (its creation, before the first connection); null while up. */
  lostAt: number | null;

  constructor(
    private readonly client: Redis,
    private readonly now: () => number = Date.now,
  ) {
    this.lostAt = now();
    client.on('ready', () => {
      this.generation++;
      this.lostAt = null;
    });
    client.on('close', () => this.lost());
  }

  get up(): boolean {
    return this.client.status === 'ready';
  }

  /** A command failed for want of a connection, maybe before the client noticed. */
  lost(): void {
    if (this.lostAt !== null) return;
    this.lostAt = this.now();
    this.losses++;
  }
}
