import type { Kysely } from 'kysely';
import type { Clock } from '../../core/shared/clock.ts';
import type { AttemptLimiter } from '../../core/shared/attempt-limiter.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { Storage } from '../../adapters/storage/connect.ts';
import type { Database } from '../../adapters/storage/schema.ts';
import { SqlLinkStore } from '../../adapters/storage/stores/link-store.ts';
import { SqlPixelStore } from '../../adapters/storage/stores/pixel-store.ts';
import { SqlSpaceStore } from '../../adapters/storage/stores/space-store.ts';
import { SqlDomainStore } from '../../adapters/storage/stores/domain-store.ts';
import { SqlLinkHealthStore } from '../../adapters/storage/stores/link-health-store.ts';
import { SqlTagStore } from '../../adapters/storage/stores/tag-store.ts';
import type { Config } from '../config.ts';
import type { Tuning } from '../tuning.ts';
import type { VisitRuntime } from '../visit-runtime.ts';

/** What every area of the container is built from: the settings, the constants, the database, the visit's state. */
export interface Base {
  config: Config;
  tuning: Tuning;
  storage: Storage;
  clock: Clock;
  visits: VisitRuntime;
  /** A test's error sink (ContainerOverrides.onError); absent: each area writes its own line to standard error. */
  onError: ((error: unknown) => void) | undefined;
}

/** The stores a link's change reads and writes, on the pool or on a unit's transaction. */
export function recordsOn(storage: Storage) {
  return (db: Kysely<Database>) => ({
    links: new SqlLinkStore(db, storage.engine),
    pixels: new SqlPixelStore(db),
    spaces: new SqlSpaceStore(db),
    domains: new SqlDomainStore(db),
    tags: new SqlTagStore(db),
    health: new SqlLinkHealthStore(db, storage.engine),
  });
}

export type RecordsOn = ReturnType<typeof recordsOn>;
export type Records = ReturnType<RecordsOn>;

/** A limiter of so many a window, shared like the redirect's password guesses; 0: that limit is off. */
export function windowLimiterOf(visits: VisitRuntime) {
  return (name: string, max: number, windowSeconds: number): AttemptLimiter | undefined =>
    max === 0 ? undefined : visits.limiter({ name, max, windowSeconds });
}

/**
 * Forgets a link's counted clicks. Called after the database write: with Redis away the write
 * stands and is answered as done; the count left behind expires with its key.
 */
export function forgetQuotaOf(visits: VisitRuntime) {
  return (id: number): Promise<void> =>
    visits.quota.forget(id).catch((error: unknown) => {
      if (!(error instanceof UnavailableError)) throw error;
    });
}

/** The error sink of one area: the test's, else a line naming what failed. */
export function errorsOf(base: Base, line: string): (error: unknown) => void {
  return base.onError ?? ((e) => console.error(line, e));
}
