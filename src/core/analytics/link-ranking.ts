import { arrange } from '../stats/stats-service.ts';
import type { StatsOrder } from '../stats/stats-store.ts';
import type { WorkspaceValueCount } from './workspace-stats.ts';

/** One link's clicks over a range. */
export interface LinkSum {
  linkId: number;
  clicks: number;
}

/**
 * Each link's clicks over a range as two parts: the settled days' sums, kept sorted most clicks
 * first (made once, when the settled sums are read, and kept with them), and the last days'
 * additions (a few thousand links a day). Walking the links in order of their range's clicks
 * then costs the last days' links, not the workspace's: a link the last days did not click is
 * where the settled order put it.
 */
export class LinkRanking {
  /** Links with clicks in the range. */
  readonly size: number;
  private readonly recentSorted: LinkSum[];

  constructor(
    /** The settled sums, most clicks first (ties in any order), none of them 0. */
    private readonly settledSorted: readonly LinkSum[],
    private readonly settled: ReadonlyMap<number, number>,
    /** The last days' clicks by link, none of them 0. */
    private readonly recent: ReadonlyMap<number, number>,
  ) {
    this.recentSorted = [];
    let added = 0;
    for (const [linkId, clicks] of recent) {
      const before = settled.get(linkId);
      if (before === undefined) added++;
      this.recentSorted.push({ linkId, clicks: clicks + (before ?? 0) });
    }
    this.recentSorted.sort((a, b) => b.clicks - a.clicks);
    this.size = settled.size + added;
  }

  /** The range's clicks of a link, 0 for one not clicked. */
  clicksOf(linkId: number): number {
    return (this.settled.get(linkId) ?? 0) + (this.recent.get(linkId) ?? 0);
  }

  /** Every link clicked, in no order. */
  all(): LinkSum[] {
    const all = this.settledSorted.filter((s) => !this.recent.has(s.linkId));
    return all.concat(this.recentSorted);
  }

  /** The links by their range's clicks, most first for 'max', fewest first for 'min'; ties in any order. */
  *inOrder(order: Exclude<StatsOrder, 'value'>): Generator<LinkSum> {
    const max = order === 'max';
    const a = this.settledSorted;
    const b = this.recentSorted;
    let i = max ? 0 : a.length - 1;
    let j = max ? 0 : b.length - 1;
    const step = max ? 1 : -1;
    const inA = (k: number) => k >= 0 && k < a.length;
    const inB = (k: number) => k >= 0 && k < b.length;
    for (;;) {
      while (inA(i) && this.recent.has(a[i]!.linkId)) i += step;
      if (!inA(i) && !inB(j)) return;
      const takeA = !inB(j) || (inA(i) && (max ? a[i]!.clicks >= b[j]!.clicks : a[i]!.clicks <= b[j]!.clicks));
      if (takeA) {
        yield a[i]!;
        i += step;
      } else {
        yield b[j]!;
        j += step;
      }
    }
  }
}

/**
 * The first `n` links in `arrange(…, order)`'s order (clicks, then alias), with their aliases
 * read only for the links walked: the first `n` by clicks and the rest of the last one's tie
 * (an alias decides among them); a link gone (no alias) is skipped, and as many more walked.
 */
export async function firstLinks(
  ranking: LinkRanking,
  order: Exclude<StatsOrder, 'value'>,
  n: number,
  aliases: (ids: readonly number[]) => Promise<ReadonlyMap<number, string>>,
): Promise<WorkspaceValueCount[]> {
  const taken: WorkspaceValueCount[] = [];
  const walk = ranking.inOrder(order);
  let next = walk.next();
  while (!next.done && taken.length < n) {
    const batch: LinkSum[] = [];
    while (!next.done && (batch.length < n - taken.length || next.value.clicks === batch.at(-1)!.clicks)) {
      batch.push(next.value);
      next = walk.next();
    }
    const names = await aliases(batch.map((b) => b.linkId));
    for (const b of batch) {
      const alias = names.get(b.linkId);
      if (alias !== undefined) taken.push({ value: alias, count: b.clicks, linkId: b.linkId });
    }
  }
  return (arrange(taken, undefined, order) as WorkspaceValueCount[]).slice(0, n);
}
