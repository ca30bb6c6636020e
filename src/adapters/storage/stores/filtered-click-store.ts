import { sql, type Kysely } from 'kysely';
import type { Breakdown } from '../../../core/stats/dimensions.ts';
import { QUARTER_MS, type ClickSpan, type FilteredClickStore } from '../../../core/stats/filtered-clicks.ts';
import type { StatsFilter } from '../../../core/stats/stats-filter.ts';
import { FILTER_DIMENSION } from '../../../core/stats/stats-filter.ts';
import type { ValueCount } from '../../../core/stats/stats-store.ts';
import type { Engine, Storage } from '../connect.ts';
import type { Database } from '../schema.ts';

/** The click row's column of each breakdown. */
const COLUMN = {
  country: 'country',
  city: 'city',
  browser: 'browser',
  platform: 'platform',
  device: 'device',
  language: 'language',
  referrer: 'referrer_host',
} as const satisfies Record<Breakdown, string>;

const DAY_MS = 86_400_000;
// A rollup's day is the link's local day when the click came, in whatever zone the account had
// then: two days either side cover every offset, and a change of zone between clicks.
const ZONE_SLACK_MS = 2 * DAY_MS;

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Filtered statistics from the click rows: each query a range scan between two instants the core
 * bounds (filtered-clicks.ts), the filters tested on its rows. PostgreSQL reads the link's rows
 * by the (link_id, at) index; SQLite's clicks have no index by link (docs/design/clicks.md), so it reads
 * every link's rows of the span by `at` and keeps the link's. Either is a read of up to
 * FILTERED_ROWS_MAX rows: it goes through `storage.reads` (docs/design/event-loop.md).
 */
export class SqlFilteredClickStore implements FilteredClickStore {
  private readonly db: Kysely<Database>;
  private readonly engine: Engine;

  constructor(storage: Pick<Storage, 'reads' | 'engine'>) {
    this.db = storage.reads;
    this.engine = storage.engine;
  }

  private rows(linkId: number, span: ClickSpan, filters: readonly StatsFilter[]) {
    let q = this.db
      .selectFrom('clicks')
      .where('link_id', '=', linkId)
      .where('at', '>=', span.from)
      .where('at', '<', span.to);
    for (const f of filters) q = q.where(COLUMN[FILTER_DIMENSION[f.name]], '=', f.value);
    return q;
  }

  async newestFrom(linkId: number, span: ClickSpan, rows: number): Promise<number | null> {
    // The link's own rows, newest first, so that the cut never depends on another account's
    // traffic (docs/design/statistics.md). On PostgreSQL an index walk of `rows` entries, no row read.
    // SQLite walks every link's rows by `at` and keeps the link's, from where the link's daily
    // rollups say its newest `rows` start: about what the reads from the cut then go through.
    const from = this.engine === 'sqlite' ? Math.max(span.from, await this.rollupHint(linkId, span, rows)) : span.from;
    // The `rows`-th newest row, when a row older than it is there to cut (exactly `rows` rows: nothing to cut).
    const newest = async (since: number) => {
      const [row, older] = await this.db
        .selectFrom('clicks')
        .select('at')
        .where('link_id', '=', linkId)
        .where('at', '>=', since)
        .where('at', '<', span.to)
        .orderBy('at', 'desc')
        .limit(2)
        .offset(rows - 1)
        .execute();
      return older === undefined ? undefined : row;
    };
    // A hint that started too late (rollups ahead of the rows) is told by finding too few rows.
    const row = (await newest(from)) ?? (from > span.from ? await newest(span.from) : undefined);
    return row === undefined ? null : Number(row.at);
  }

  /**
   * An instant at or before the link's `rows`-th newest row in the span, by its daily rollups
   * (human clicks and bots): the days of the span's last two left out (an undercount only moves
   * the hint earlier), and two days of slack for the zone the days were counted in. The span's
   * start when the rollups hold fewer rows.
   */
  private async rollupHint(linkId: number, span: ClickSpan, rows: number): Promise<number> {
    const days = await this.db
      .selectFrom('click_rollups')
      .select(['day', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('link_id', '=', linkId)
      .where('dimension', 'in', ['total', 'bot'])
      .where('day', '>=', utcDate(span.from - ZONE_SLACK_MS))
      .where('day', '<=', utcDate(span.to - ZONE_SLACK_MS))
      .groupBy('day')
      .orderBy('day', 'desc')
      .execute();
    let seen = 0;
    for (const { day, count } of days) {
      seen += Number(count);
      if (seen >= rows) return Date.parse(`${day}T00:00:00Z`) - ZONE_SLACK_MS;
    }
    return span.from;
  }

  async totals(
    linkId: number,
    span: ClickSpan,
    filters: readonly StatsFilter[],
  ): Promise<{ total: number; bots: number }> {
    const row = await this.rows(linkId, span, filters)
      .select([
        sql<number | string | null>`sum(case when ${sql.ref('is_bot')} = 0 then 1 else 0 end)`.as('total'),
        sql<number | string | null>`sum(case when ${sql.ref('is_bot')} = 0 then 0 else 1 end)`.as('bots'),
      ])
      .executeTakeFirst();
    return { total: Number(row?.total ?? 0), bots: Number(row?.bots ?? 0) };
  }

  async quarters(
    linkId: number,
    span: ClickSpan,
    filters: readonly StatsFilter[],
  ): Promise<Array<{ quarter: number; count: number }>> {
    // `at` is an integer on both engines: the division truncates.
    const quarter = sql<number | string>`${sql.ref('at')} / ${sql.lit(QUARTER_MS)}`;
    const rows = await this.rows(linkId, span, filters)
      .where('is_bot', '=', 0)
      .select([quarter.as('quarter'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy(quarter)
      .execute();
    return rows.map((r) => ({ quarter: Number(r.quarter), count: Number(r.count) }));
  }

  async counts(
    linkId: number,
    breakdown: Breakdown,
    span: ClickSpan,
    filters: readonly StatsFilter[],
  ): Promise<ValueCount[]> {
    const column = COLUMN[breakdown];
    const rows = await this.rows(linkId, span, filters)
      .where('is_bot', '=', 0)
      .select([sql.ref<string | null>(column).as('value'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy(column)
      .execute();
    return rows.map((r) => ({ value: r.value === '' ? null : r.value, count: Number(r.count) }));
  }
}
