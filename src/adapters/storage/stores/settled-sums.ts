import { LRUCache } from 'lru-cache';

/** A dimension's clicks per value over some of a link's settled rollup rows. */
export type ValueSums = ReadonlyMap<string, number>;

/** Clicks per value as a list reads them: each (count, value) once, and how many values. */
export interface ValueSumsView {
  readonly size: number;
  forEach(each: (count: number, value: string) => void): void;
}

/**
 * The settled sums with the recent days' rows added, read through both: a busy link's settled
 * values are thousands, its recent ones far fewer, so copying the settled map for each request
 * cost more than the list it fed. `recent` holds each value once (grouped by value).
 */
export function withRecent(settled: ValueSums, recent: ReadonlyArray<readonly [string, number]>): ValueSumsView {
  if (recent.length === 0) return settled;
  const added = new Map(recent);
  let size = settled.size;
  for (const value of added.keys()) if (!settled.has(value)) size++;
  return {
    size,
    forEach(each) {
      settled.forEach((count, value) => each(count + (added.get(value) ?? 0), value));
      added.forEach((count, value) => {
        if (!settled.has(value)) each(count, value);
      });
    },
  };
}

// Values held at most, all entries together: a year of a busy link's referrers is a few thousand.
const MAX_VALUES = 250_000;
// Settled rows change only if a click writer's batches wait days for their recovery (the fold
// waits for it; reads do not ask): an entry is read again after this long whatever happens.
const TTL_MS = 10 * 60_000;

/**
 * The sums per value of a link's settled rows (days before core/stats' settledBefore, and the
 * folded months and quarters), kept in memory by link, dimension and spans. Those rows get no
 * more clicks: folded ones are inserted once and never updated, days that are over everywhere
 * (the fold's own premise) get no more, and a link's rows go with it while link ids are never
 * used again (docs/design/statistics.md). So a long range reads the database for its last days alone after
 * its first read. Concurrent misses of one key share one read.
 */
export class SettledSums {
  // A list longer than the whole cache is not kept (lru-cache refuses it): read each time.
  private readonly cache = new LRUCache<string, ValueSums>({
    maxSize: MAX_VALUES,
    sizeCalculation: (sums) => Math.max(1, sums.size),
    ttl: TTL_MS,
  });
  private readonly reading = new Map<string, Promise<ValueSums>>();

  async of(key: string, read: () => Promise<ValueSums>): Promise<ValueSums> {
    const cached = this.cache.get(key) ?? this.reading.get(key);
    if (cached) return cached;
    const pending = read();
    this.reading.set(key, pending);
    try {
      const sums = await pending;
      this.cache.set(key, sums);
      return sums;
    } finally {
      this.reading.delete(key);
    }
  }
}
