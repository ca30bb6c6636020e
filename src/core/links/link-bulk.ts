import type { Link, LinkFilter } from './link.ts';
import type { LinkStore } from './link-store.ts';

/** What a bulk action changes on each link (export reads only: see LinksService.exportChunks). */
export type BulkChange =
  | { kind: 'delete' }
  | { kind: 'move'; spaceId: number | null }
  | { kind: 'enable' }
  | { kind: 'disable' }
  /** Replaces each link's pixels with these (none: clears them). */
  | { kind: 'pixels'; pixelIds: readonly number[] };

/** Which links: the ids chosen (another account's are skipped), or every link the filter matches. */
export type BulkTarget = { ids: readonly number[] } | { filter: LinkFilter };

/** Links read and written per round trip: "every matching link" may be a hundred thousand. */
export const BULK_CHUNK = 500;

/**
 * The account's targeted links, a chunk at a time, in id order. Matching links are read by
 * keyset (ids above the last one seen), so a chunk changed or deleted meanwhile never shifts
 * the next one as an offset would.
 */
export async function* targetedChunks(
  store: LinkStore,
  accountId: number,
  target: BulkTarget,
  now: () => number,
): AsyncGenerator<Link[]> {
  if ('ids' in target) {
    const ids = [...new Set(target.ids)];
    for (let i = 0; i < ids.length; i += BULK_CHUNK) {
      const found = await store.findByIds(accountId, ids.slice(i, i + BULK_CHUNK));
      if (found.length > 0) yield found;
    }
    return;
  }
  let after = 0;
  for (;;) {
    const found = await store.listAfter(accountId, target.filter, after, BULK_CHUNK, now());
    if (found.length === 0) return;
    yield found;
    if (found.length < BULK_CHUNK) return;
    after = found[found.length - 1]!.id;
  }
}
