import { sql, type Kysely } from 'kysely';
import type { Breakdown } from '../../../core/stats/dimensions.ts';
import { QUARTER_MS, type ClickSpan, type FilteredClickStore } from '../../../core/stats/filtered-clicks.ts';
import type { StatsFilter } from '../../../core/stats/stats-filter.ts';
import { FILTER_DIMENSION } from '../../../core/stats/stats-filter.ts';
import type { ValueCount } from '../../../core/stats/stats-store.ts';
import type { Engine } from '../connect.ts';
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

/**
 * Filtered statistics from the click rows: each query a range scan between two instants the core
 * bounds (filtered-clicks.ts), the filters tested on its rows. PostgreSQL reads the link's rows
 * by the (link_id, at) index; SQLite's clicks have no index by link (docs/adr/0011), so it reads
 * every link's rows of the span by `at` and keeps the link's.
 */
export class SqlFilteredClickStore implements FilteredClickStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  private rows(linkId: number, span: ClickSpan, filters: readonly StatsFilter[]) {
    let q = this.db.selectFrom('clicks').where('link_id', '=', linkId).where('at', '>=', span.from).where('at', '<', span.to);
    for (const f of filters) q = q.where(COLUMN[FILTER_DIMENSION[f.name]], '=', f.value);
    return q;
  }

  async newestFrom(linkId: number, span: ClickSpan, rows: number): Promise<number | null> {
    // The rows the reads go through, newest first, off the index they scan: the link's on
    // PostgreSQL, every link's on SQLite. An index walk of `rows` entries, no row read.
    let q = this.db.selectFrom('clicks').select('at').where('at', '>=', span.from).where('at', '<', span.to);
    if (this.engine === 'postgres') q = q.where('link_id', '=', linkId);
    const row = await q
      .orderBy('at', 'desc')
      .limit(1)
      .offset(rows - 1)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.at);
  }

  async totals(linkId: number, span: ClickSpan, filters: readonly StatsFilter[]): Promise<{ total: number; bots: number }> {
    const row = await this.rows(linkId, span, filters)
      .select([
        sql<number | string | null>`sum(case when ${sql.ref('is_bot')} = 0 then 1 else 0 end)`.as('total'),
        sql<number | string | null>`sum(case when ${sql.ref('is_bot')} = 0 then 0 else 1 end)`.as('bots'),
      ])
      .executeTakeFirst();
    return { total: Number(row?.total ?? 0), bots: Number(row?.bots ?? 0) };
  }

  async quarters(linkId: number, span: ClickSpan, filters: readonly StatsFilter[]): Promise<Array<{ quarter: number; count: number }>> {
    // `at` is an integer on both engines: the division truncates.
    const quarter = sql<number | string>`${sql.ref('at')} / ${sql.lit(QUARTER_MS)}`;
    const rows = await this.rows(linkId, span, filters)
      .where('is_bot', '=', 0)
      .select([quarter.as('quarter'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy(quarter)
      .execute();
    return rows.map((r) => ({ quarter: Number(r.quarter), count: Number(r.count) }));
  }

  async counts(linkId: number, breakdown: Breakdown, span: ClickSpan, filters: readonly StatsFilter[]): Promise<ValueCount[]> {
    const column = COLUMN[breakdown];
    const rows = await this.rows(linkId, span, filters)
      .where('is_bot', '=', 0)
      .select([sql.ref<string | null>(column).as('value'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy(column)
      .execute();
    return rows.map((r) => ({ value: r.value === '' ? null : r.value, count: Number(r.count) }));
  }
}
