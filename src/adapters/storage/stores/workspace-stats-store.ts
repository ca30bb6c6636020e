import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { LinkFacts, LinkRangeCount } from '../../../core/analytics/workspace-stats.ts';
import type { WorkspaceStatsStore } from '../../../core/analytics/workspace-stats-service.ts';
import { settledBefore } from '../../../core/stats/rollup-months.ts';
import { addDays, type DayRange } from '../../../core/stats/range.ts';
import type { Database } from '../schema.ts';

/** Each link's clicks and QR scans over some days: [clicks, qr] by link id. */
type LinkSums = Map<number, [number, number]>;

// Links held at most, all entries together: a big workspace's year is some thousands of links.
const MAX_LINKS = 500_000;
// As settled-sums.ts: settled days get no more clicks but from a recovery days late.
const TTL_MS = 10 * 60_000;
// Ids a statement binds at most (SQLite's limit is far above; PostgreSQL's 65 535).
const IDS_PER_READ = 5_000;

/**
 * A workspace's breakdowns from account_link_days (migration 0050): one range of its key,
 * (account_id, day, link_id), a row per link and day clicked. The days before settledBefore get
 * no more clicks, so their sums per link are read once and kept in memory (as a link's settled
 * sums are: docs/design/statistics.md); each read then sums the last days alone.
 */
export class SqlWorkspaceStatsStore implements WorkspaceStatsStore {
  private readonly settled = new LRUCache<string, LinkSums>({
    maxSize: MAX_LINKS,
    sizeCalculation: (sums) => Math.max(1, sums.size),
    ttl: TTL_MS,
  });
  private readonly reading = new Map<string, Promise<LinkSums>>();
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async linkCounts(workspaceId: number, range: DayRange): Promise<LinkRangeCount[]> {
    const settledEnd = addDays(settledBefore(this.now()), -1);
    const settledTo = range.to < settledEnd ? range.to : settledEnd;
    const sums: LinkSums = new Map(
      range.from <= settledTo ? await this.settledSums(workspaceId, { from: range.from, to: settledTo }) : [],
    );
    if (range.to > settledTo) {
      const recent = { from: range.from > settledTo ? range.from : addDays(settledTo, 1), to: range.to };
      for (const [id, [clicks, qr]] of await this.sums(workspaceId, recent)) {
        const had = sums.get(id);
        sums.set(id, had ? [had[0] + clicks, had[1] + qr] : [clicks, qr]);
      }
    }
    return [...sums].map(([linkId, [clicks, qr]]) => ({ linkId, clicks, qr }));
  }

  private async settledSums(workspaceId: number, range: DayRange): Promise<LinkSums> {
    const key = `${workspaceId}|${range.from}|${range.to}`;
    const cached = this.settled.get(key) ?? this.reading.get(key);
    if (cached) return cached;
    const pending = this.sums(workspaceId, range);
    this.reading.set(key, pending);
    try {
      const sums = await pending;
      this.settled.set(key, sums);
      return sums;
    } finally {
      this.reading.delete(key);
    }
  }

  private async sums(workspaceId: number, range: DayRange): Promise<LinkSums> {
    const rows = await this.db
      .selectFrom('account_link_days')
      .select([
        'link_id',
        (eb) => eb.fn.sum<number | string>('clicks').as('clicks'),
        (eb) => eb.fn.sum<number | string>('qr').as('qr'),
      ])
      .where('account_id', '=', workspaceId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('link_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.link_id), [Number(r.clicks), Number(r.qr)]]));
  }

  async linkFacts(workspaceId: number, ids: readonly number[]): Promise<LinkFacts[]> {
    const facts: LinkFacts[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_READ)
      facts.push(...(await this.factsOf(workspaceId, ids.slice(i, i + IDS_PER_READ))));
    return facts;
  }

  private async factsOf(workspaceId: number, ids: readonly number[]): Promise<LinkFacts[]> {
    if (ids.length === 0) return [];
    const [links, tags] = await Promise.all([
      this.db
        .selectFrom('links as l')
        .leftJoin('spaces as s', 's.id', 'l.space_id')
        .select(['l.id', 'l.alias', 'l.url', 'l.title', 's.name as space'])
        .where('l.account_id', '=', workspaceId)
        .where('l.id', 'in', [...ids])
        .execute(),
      this.db
        .selectFrom('link_tags as lt')
        .innerJoin('tags as t', 't.id', 'lt.tag_id')
        .select(['lt.link_id', 't.name'])
        .where('t.account_id', '=', workspaceId)
        .where('lt.link_id', 'in', [...ids])
        .orderBy(sql.ref('t.name'))
        .execute(),
    ]);
    const tagsOf = new Map<number, string[]>();
    for (const t of tags) {
      const list = tagsOf.get(t.link_id) ?? [];
      list.push(t.name);
      tagsOf.set(t.link_id, list);
    }
    return links.map((l) => ({
      id: l.id,
      alias: l.alias,
      url: l.url,
      title: l.title,
      space: l.space ?? null,
      tags: tagsOf.get(l.id) ?? [],
    }));
  }
}
