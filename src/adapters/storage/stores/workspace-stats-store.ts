import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { LinkRanking, type LinkSum } from '../../../core/analytics/link-ranking.ts';
import type { ValueName } from '../../../core/analytics/workspace-stats.ts';
import type { WorkspaceStatsStore } from '../../../core/analytics/workspace-stats-service.ts';
import { settledBefore } from '../../../core/stats/rollup-months.ts';
import { addDays, type DayRange } from '../../../core/stats/range.ts';
import type { ValueCount } from '../../../core/stats/stats-store.ts';
import type { Database } from '../schema.ts';

/** The settled days' sums per link: in a map, and sorted most clicks first. */
interface SettledLinks {
  sums: Map<number, number>;
  sorted: LinkSum[];
}

/** Clicks by name, then by value ('' for none). */
type ValueSums = Map<string, Map<string, number>>;

// Links held at most, all entries together: a big workspace's year is some hundred thousand links.
const MAX_LINKS = 500_000;
// Values held at most, all entries together (a workspace has some hundreds).
const MAX_VALUES = 200_000;
// As settled-sums.ts: settled days get no more clicks but from a recovery days late.
const TTL_MS = 10 * 60_000;
// How long a workspace's links ranking is kept whole, its last days' sums included: reading and
// sorting those (about 40 000 link-days for 100 000 links all clicked) is most of the page's time.
const RANKING_TTL_MS = 2_000;
// Ids a statement binds at most (SQLite's limit is far above; PostgreSQL's 65 535).
const IDS_PER_READ = 5_000;

/**
 * A workspace's analytics from its rollups (docs/design/statistics.md, "Workspace analytics"):
 * the breakdowns by value from account_value_days (migration 0054), one range of its key
 * (account_id, day, name, value) grouped by name and value; the links from account_link_days
 * (migration 0050), (account_id, day, link_id). The days before settledBefore get no more
 * clicks, so their sums are read once and kept in memory (as a link's settled sums are), the
 * links' sorted by clicks; each read then sums the last days alone.
 */
export class SqlWorkspaceStatsStore implements WorkspaceStatsStore {
  private readonly settledLinks = new LRUCache<string, SettledLinks>({
    maxSize: MAX_LINKS,
    sizeCalculation: (s) => Math.max(1, s.sums.size),
    ttl: TTL_MS,
  });
  private readonly settledValues = new LRUCache<string, ValueSums>({
    maxSize: MAX_VALUES,
    sizeCalculation: (s) =>
      Math.max(
        1,
        [...s.values()].reduce((n, m) => n + m.size, 0),
      ),
    ttl: TTL_MS,
  });
  private readonly rankings: LRUCache<string, Promise<LinkRanking>>;
  private readonly reading = new Map<string, Promise<unknown>>();
  private readonly now: () => number;
  /**
   * Where the sums go (storage.reads: a SQLite file's reader thread, docs/design/event-loop.md):
   * a year's settled link days are millions of rows.
   */
  private readonly reads: Kysely<Database>;

  constructor(
    private readonly db: Kysely<Database>,
    options: { now?: () => number; rankingTtlMs?: number; reads?: Kysely<Database> } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.reads = options.reads ?? db;
    this.rankings = new LRUCache({ max: 100, ttl: Math.max(1, options.rankingTtlMs ?? RANKING_TTL_MS) });
  }

  async valueCounts(
    workspaceId: number,
    range: DayRange,
    names: readonly ValueName[],
  ): Promise<Map<ValueName, ValueCount[]>> {
    const { settled, recent } = this.split(range);
    const [old, last] = await Promise.all([
      settled
        ? this.kept(this.settledValues, `${workspaceId}|${settled.from}|${settled.to}`, () =>
            this.valueSums(workspaceId, settled),
          )
        : null,
      recent ? this.valueSums(workspaceId, recent) : null,
    ]);
    const answer = new Map<ValueName, ValueCount[]>();
    for (const name of names) {
      const sums = new Map(old?.get(name));
      for (const [value, clicks] of last?.get(name) ?? []) sums.set(value, (sums.get(value) ?? 0) + clicks);
      const counts: ValueCount[] = [];
      for (const [value, count] of sums) if (count > 0) counts.push({ value: value === '' ? null : value, count });
      answer.set(name, counts);
    }
    return answer;
  }

  /**
   * Kept RANKING_TTL_MS whole (the last days' sums too), so a list of links may be that much
   * behind the clicks; a failed read is not kept.
   */
  linkRanking(workspaceId: number, range: DayRange): Promise<LinkRanking> {
    const key = `${workspaceId}|${range.from}|${range.to}`;
    const kept = this.rankings.get(key);
    if (kept) return kept;
    const reading = this.readRanking(workspaceId, range);
    this.rankings.set(key, reading);
    reading.catch(() => this.rankings.delete(key));
    return reading;
  }

  private async readRanking(workspaceId: number, range: DayRange): Promise<LinkRanking> {
    const { settled, recent } = this.split(range);
    const [old, last] = await Promise.all([
      settled
        ? this.kept(this.settledLinks, `${workspaceId}|${settled.from}|${settled.to}`, async () => {
            const sums = await this.linkSums(workspaceId, settled);
            const sorted = [...sums].map(([linkId, clicks]) => ({ linkId, clicks }));
            return { sums, sorted: sorted.sort((a, b) => b.clicks - a.clicks) };
          })
        : null,
      recent ? this.linkSums(workspaceId, recent) : new Map<number, number>(),
    ]);
    return new LinkRanking(old?.sorted ?? [], old?.sums ?? new Map(), last);
  }

  /** The range's settled days (before settledBefore) and its last days, either null when empty. */
  private split(range: DayRange): { settled: DayRange | null; recent: DayRange | null } {
    const settledEnd = addDays(settledBefore(this.now()), -1);
    const settledTo = range.to < settledEnd ? range.to : settledEnd;
    return {
      settled: range.from <= settledTo ? { from: range.from, to: settledTo } : null,
      recent:
        range.to > settledTo
          ? { from: range.from > settledTo ? range.from : addDays(settledTo, 1), to: range.to }
          : null,
    };
  }

  /** A settled read, kept; one read at a time per key. */
  private async kept<T extends object>(cache: LRUCache<string, T>, key: string, read: () => Promise<T>): Promise<T> {
    const readingKey = `${cache === (this.settledValues as unknown) ? 'values' : 'links'}|${key}`;
    const cached = cache.get(key) ?? (this.reading.get(readingKey) as Promise<T> | undefined);
    if (cached) return cached;
    const pending = read();
    this.reading.set(readingKey, pending);
    try {
      const value = await pending;
      cache.set(key, value);
      return value;
    } finally {
      this.reading.delete(readingKey);
    }
  }

  private async valueSums(workspaceId: number, range: DayRange): Promise<ValueSums> {
    const rows = await this.reads
      .selectFrom('account_value_days')
      .select(['name', 'value', (eb) => eb.fn.sum<number | string>('clicks').as('clicks')])
      .where('account_id', '=', workspaceId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy(['name', 'value'])
      .execute();
    const sums: ValueSums = new Map();
    for (const r of rows) {
      const values = sums.get(r.name) ?? new Map<string, number>();
      values.set(r.value, Number(r.clicks));
      sums.set(r.name, values);
    }
    return sums;
  }

  /** Each link's clicks over the days, links deleted since left out (their days stay). */
  private async linkSums(workspaceId: number, range: DayRange): Promise<Map<number, number>> {
    const rows = await this.reads
      .selectFrom('account_link_days as d')
      .innerJoin('links as l', 'l.id', 'd.link_id')
      .select(['d.link_id', (eb) => eb.fn.sum<number | string>('d.clicks').as('clicks')])
      .where('d.account_id', '=', workspaceId)
      .where('d.day', '>=', range.from)
      .where('d.day', '<=', range.to)
      .where('d.clicks', '>', 0)
      .groupBy('d.link_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.link_id), Number(r.clicks)]));
  }

  async linkAliases(workspaceId: number, ids: readonly number[]): Promise<Map<number, string>> {
    const aliases = new Map<number, string>();
    for (let i = 0; i < ids.length; i += IDS_PER_READ) {
      const rows = await this.db
        .selectFrom('links')
        .select(['id', 'alias'])
        .where('account_id', '=', workspaceId)
        .where('id', 'in', ids.slice(i, i + IDS_PER_READ))
        .execute();
      for (const r of rows) aliases.set(r.id, r.alias);
    }
    return aliases;
  }

  async aliasesMatching(workspaceId: number, needle: string): Promise<Map<number, string>> {
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // alias_key is the alias in lower case (JavaScript's), as the needle is; every link of the
    // workspace is looked at.
    const rows = await this.reads
      .selectFrom('links')
      .select(['id', 'alias'])
      .where('account_id', '=', workspaceId)
      .where(sql<boolean>`alias_key like ${pattern} escape '\\'`)
      .execute();
    return new Map(rows.map((r) => [r.id, r.alias]));
  }
}
