import { setImmediate as turn } from 'node:timers/promises';
import type { MostVisitedSource } from '../../core/redirect/redirect-link.ts';
import type { CachedRedirectSource } from './cached-redirect-source.ts';

export interface WarmUpOptions {
  /** Links to load at most. */
  count: number;
  /** Links per read; the event loop turns between reads. Default 500. */
  batch?: number;
  /** Stops between reads (the server is stopping). */
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * Loads the links most visited lately into the cache, a batch at a time: a restarted instance
 * answers its busiest links without a database read each. Visits are served meanwhile (what a
 * visit caches first is kept), and a link changed while its batch was read is left to the
 * first visit. Answers how many links were stored.
 */
export async function warmUp(
  cache: CachedRedirectSource,
  source: MostVisitedSource,
  options: WarmUpOptions,
): Promise<number> {
  if (options.count <= 0) return 0;
  const batch = options.batch ?? 500;
  // Custom domains' links are keyed by their names.
  await cache.ready();
  const ids = await source.mostVisited(options.count, (options.now ?? Date.now)());
  let stored = 0;
  for (let i = 0; i < ids.length && !options.signal?.aborted; i += batch) {
    const mark = cache.mark;
    stored += cache.prime(await source.byIds(ids.slice(i, i + batch)), mark);
    await turn();
  }
  return stored;
}
