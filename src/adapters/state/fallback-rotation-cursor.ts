import { IdleMap } from './idle-map.ts';
import type { RedisRotationCursor } from './redis-rotation-cursor.ts';
import type { RedisPresence } from './redis-presence.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { RotationCursor, RotationStore } from '../../core/clicks/ports.ts';

const IDLE_MS = 3 * 3600_000;

/**
 * Rotation in Redis while this instance has it, in the database's position while it has not
 * (docs/design/outages.md). Going to the database, a link starts after the position Redis last gave here;
 * coming back, the first visit per link and connection takes the database's position (and removes
 * it) and Redis continues from there.
 */
export class FallbackRotationCursor implements RotationCursor {
  private readonly seen: IdleMap<number>;
  private readonly synced: IdleMap<number>;

  constructor(
    private readonly redis: RedisRotationCursor,
    private readonly store: RotationStore,
    private readonly presence: RedisPresence,
    now: () => number = Date.now,
  ) {
    this.seen = new IdleMap(IDLE_MS, now);
    this.synced = new IdleMap(IDLE_MS, now);
  }

  next(linkId: number, size: number, known: number): Promise<number> {
    if (!this.presence.up) return this.inDatabase(linkId, size, known);
    const orInDatabase = (error: unknown): Promise<number> => {
      if (!(error instanceof UnavailableError)) throw error;
      this.presence.lost();
      return this.inDatabase(linkId, size, known);
    };
    // Nearly every visit: the position was taken back from the database on this connection.
    if (this.synced.get(linkId) !== this.presence.generation)
      return this.viaRedis(linkId, size, known).then(undefined, orInDatabase);
    return this.redis.next(linkId, size, known).then((position) => {
      this.seen.set(linkId, position);
      return position;
    }, orInDatabase);
  }

  private inDatabase(linkId: number, size: number, known: number): Promise<number> {
    return this.store.next(linkId, size, this.seen.get(linkId) ?? known);
  }

  private async viaRedis(linkId: number, size: number, known: number): Promise<number> {
    const generation = this.presence.generation;
    let held: number | null = null;
    let tookBack = this.synced.get(linkId) === generation;
    if (!tookBack) {
      try {
        held = await this.store.take(linkId);
        tookBack = true;
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
      }
    }
    const position = await this.redis.next(linkId, size, held ?? known, held !== null);
    if (tookBack) this.synced.set(linkId, generation);
    this.seen.set(linkId, position);
    return position;
  }
}
