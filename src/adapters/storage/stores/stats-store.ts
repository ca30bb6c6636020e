import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Dimension } from '../../../core/stats/dimensions.ts';
import type { DayRange } from '../../../core/stats/range.ts';
import type {
  BreakdownQuery,
  LinkDayCount,
  StatsStore,
  StatsSummary,
  ValueCount,
} from '../../../core/stats/stats-store.ts';
import { offsetOf } from '../../../core/shared/page.ts';
import { rangeParts, settledBefore } from '../../../core/stats/rollup-months.ts';
import { addDays } from '../../../core/stats/range.ts';
import type { Database } from '../schema.ts';
import type { SqlRollupMonths } from './rollup-months.ts';
import type { Engine } from '../connect.ts';
import { SettledSums, withRecent, type ValueSumsView } from './settled-sums.ts';
import { orderedPage, valueOf } from './value-order.ts';

/** Rows of one rollup table between two keys, inclusive: days (YYYY-MM-DD), months or quarters (YYYY-MM). */
interface RollupSpan {
  table: 'click_rollups' | 'click_rollup_months' | 'click_rollup_quarters';
  key: 'day' | 'month' | 'quarter';
  from: string;
  to: string;
}

/**
 * Statistics from the rollups only. Every query is a range scan of a primary key, (link_id,
 * dimension, day, value) of the daily rows, (link_id, dimension, month, value) of the monthly
 * ones and (link_id, dimension, quarter, value) of the quarterly ones: at most days × values
 * rows, however many clicks, and for the whole months and quarters of a long range months ×
 * values and quarters × values (docs/design/statistics.md). A value list's settled part, which gets
 * no more clicks, is summed once and kept (SettledSums): a range then reads its
 * last days alone.
 */
export class SqlStatsStore implements StatsStore {
  private readonly settledSums = new SettledSums();
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
    private readonly months: Pick<SqlRollupMonths, 'foldedBefore'>,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The daily rows of the range's days; the chart of days reads these alone. */
  private dayRows(linkId: number, dimension: Dimension, range: DayRange) {
    return this.db
      .selectFrom('click_rollups')
      .where('link_id', '=', linkId)
      .where('dimension', '=', dimension)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to);
  }

  /**
   * Where the range's rows are: quarterly ones for its folded whole quarters, monthly ones for
   * its other folded whole months, daily ones for the rest (at least one span).
   */
  private async spans(linkId: number, range: DayRange): Promise<RollupSpan[]> {
    const { days, months, quarters } = rangeParts(range, await this.months.foldedBefore(linkId));
    const spans: RollupSpan[] = [
      ...days.map((d): RollupSpan => ({ table: 'click_rollups', key: 'day', ...d })),
      ...months.map((m): RollupSpan => ({ table: 'click_rollup_months', key: 'month', ...m })),
    ];
    if (quarters) spans.push({ table: 'click_rollup_quarters', key: 'quarter', ...quarters });
    return spans;
  }

  private spanRows(linkId: number, span: RollupSpan) {
    return this.db
      .selectFrom(span.table)
      .where('link_id', '=', linkId)
      .where(sql.ref(span.key), '>=', span.from)
      .where(sql.ref(span.key), '<=', span.to);
  }

  /**
   * One dimension's (value, count) rows over the range. Only the columns read are selected:
   * a column the outer query drops makes PostgreSQL project every row of the union once more.
   */
  private async rows(linkId: number, dimension: Dimension, range: DayRange) {
    return this.spansRows(linkId, dimension, await this.spans(linkId, range));
  }

  private spansRows(linkId: number, dimension: Dimension, spans: readonly RollupSpan[]) {
    const [first, ...rest] = spans.map((span) =>
      this.spanRows(linkId, span).select(['value', 'count']).where('dimension', '=', dimension),
    );
    return this.db.selectFrom(rest.reduce((union, part) => union.unionAll(part), first!).as('r'));
  }

  private async sumsOf(
    linkId: number,
    dimension: Dimension,
    spans: readonly RollupSpan[],
  ): Promise<Array<[string, number]>> {
    const rows = await this.spansRows(linkId, dimension, spans)
      .select(['value', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .groupBy('value')
      .execute();
    return rows.map((r) => [r.value, Number(r.count)]);
  }

  /**
   * A dimension's sums per value over the range, or null when none of it is settled: the settled
   * spans (folded months and quarters, days over everywhere) summed once and kept, the days
   * after them read each time.
   */
  private async valueSums(linkId: number, dimension: Dimension, range: DayRange): Promise<ValueSumsView | null> {
    const settled = settledBefore(this.now());
    const kept: RollupSpan[] = [];
    const live: RollupSpan[] = [];
    for (const span of await this.spans(linkId, range)) {
      if (span.table !== 'click_rollups' || span.to < settled) kept.push(span);
      else if (span.from >= settled) live.push(span);
      else {
        kept.push({ ...span, to: addDays(settled, -1) });
        live.push({ ...span, from: settled });
      }
    }
    if (kept.length === 0) return null;
    const key = [linkId, dimension, ...kept.map((span) => `${span.key} ${span.from} ${span.to}`)].join('|');
    const [sums, recent] = await Promise.all([
      this.settledSums.of(key, async () => new Map(await this.sumsOf(linkId, dimension, kept))),
      live.length > 0 ? this.sumsOf(linkId, dimension, live) : Promise.resolve([]),
    ]);
    return withRecent(sums, recent);
  }

  /** Several dimensions' (dimension, count) rows over the range, for the totals of those without values. */
  private async dimensionRows(linkId: number, dimensions: readonly Dimension[], range: DayRange) {
    const [first, ...rest] = (await this.spans(linkId, range)).map((span) =>
      this.spanRows(linkId, span)
        .select(['dimension', 'count'])
        .where('dimension', 'in', [...dimensions]),
    );
    return this.db.selectFrom(rest.reduce((union, part) => union.unionAll(part), first!).as('r'));
  }

  async perDay(linkId: number, range: DayRange): Promise<ValueCount[]> {
    const rows = await this.dayRows(linkId, 'total', range)
      .select(['day', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .groupBy('day')
      .execute();
    return rows.map((r) => ({ value: r.day, count: Number(r.count) }));
  }

  async counts(linkId: number, dimension: Dimension, range: DayRange): Promise<ValueCount[]> {
    const sums = await this.valueSums(linkId, dimension, range);
    if (sums) {
      const listed: ValueCount[] = [];
      sums.forEach((count, value) => listed.push({ value: valueOf(value), count }));
      return listed;
    }
    const rows = await (
      await this.rows(linkId, dimension, range)
    )
      .select(['value', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .groupBy('value')
      .execute();
    return rows.map((r) => ({ value: valueOf(r.value), count: Number(r.count) }));
  }

  async breakdown(
    linkId: number,
    dimension: Dimension,
    range: DayRange,
    query: BreakdownQuery,
  ): Promise<{ items: ValueCount[]; total: number }> {
    // A search matches in the database's own collation (contains): searched lists are read there whole.
    if (!query.search) {
      const sums = await this.valueSums(linkId, dimension, range);
      if (sums) return orderedPage(sums, query.order, query.page);
    }
    let q = await this.rows(linkId, dimension, range);
    if (query.search) q = q.where(this.contains(query.search));
    const sum = sql<number | string>`sum(${sql.ref('count')})`;
    let listed = q
      .select(['value', sum.as('count'), sql<number | string>`count(*) over ()`.as('entries')])
      .groupBy('value');
    listed =
      query.order === 'value'
        ? listed.orderBy('value')
        : listed.orderBy(sum, query.order === 'max' ? 'desc' : 'asc').orderBy('value');
    if (query.page) listed = listed.limit(query.page.perPage).offset(offsetOf(query.page));
    const rows = await listed.execute();
    let total = rows.length > 0 ? Number(rows[0]!.entries) : 0;
    // Past the last page: no row to carry the number of entries, so count them.
    if (rows.length === 0 && query.page && query.page.page > 1) {
      const counted = await q
        .select((eb) => eb.fn.count<number | string>(sql`distinct ${sql.ref('value')}`).as('n'))
        .executeTakeFirst();
      total = Number(counted?.n ?? 0);
    }
    return { items: rows.map((r) => ({ value: valueOf(r.value), count: Number(r.count) })), total };
  }

  /** Kept by triggers as the rollups are written (migration 0010): one row a day of the range. */
  async accountPerDay(accountId: number, range: DayRange): Promise<ValueCount[]> {
    const rows = await this.db
      .selectFrom('account_click_days')
      .select(['day', 'count'])
      .where('account_id', '=', accountId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .execute();
    return rows.map((r) => ({ value: r.day, count: Number(r.count) }));
  }

  /**
   * The links list's trends: one range scan of the daily `total` rows per link, in one statement,
   * so a page of 100 links reads at most 100 × its days rows. The daily rows stay after a month
   * is folded (docs/design/statistics.md), so a recent range never needs the monthly ones.
   */
  async linksPerDay(linkIds: readonly number[], range: DayRange): Promise<LinkDayCount[]> {
    if (linkIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('click_rollups')
      .select(['link_id', 'day', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .where('link_id', 'in', [...linkIds])
      .where('dimension', '=', 'total')
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy(['link_id', 'day'])
      .execute();
    return rows.map((r) => ({ linkId: r.link_id, day: r.day, count: Number(r.count) }));
  }

  /**
   * Case-insensitive substring, %, _ and \ taken literally. PostgreSQL keeps values in byte
   * order ("C"), whose lower() folds ASCII only: the search folds in the database's own
   * collation, as the link searches do.
   */
  private contains(search: string) {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const value = this.engine === 'postgres' ? sql`${sql.ref('value')} collate "default"` : sql.ref('value');
    return sql<SqlBool>`lower(${value}) like ${pattern} escape '\\'`;
  }

  async summary(linkId: number, range: DayRange): Promise<StatsSummary> {
    const rows = await (
      await this.dimensionRows(linkId, ['total', 'unique', 'bot'], range)
    )
      .select(['dimension', (eb) => eb.fn.sum<number | string>('count').as('count')])
      .groupBy('dimension')
      .execute();
    const of = (d: string) => Number(rows.find((r) => r.dimension === d)?.count ?? 0);
    return { total: of('total'), unique: of('unique'), bots: of('bot') };
  }
}
