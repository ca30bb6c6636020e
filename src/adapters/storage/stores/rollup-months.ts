import { setImmediate as yieldToIo } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { FoldRound, MonthFolder } from '../../../core/stats/stats-store.ts';
import { quarterOf, settledBefore } from '../../../core/stats/rollup-months.ts';
import type { Engine } from '../connect.ts';
import { recoveryDue } from './recovery-due.ts';
import { RecentRollups } from './recent-rollups.ts';
import type { Database, RollupMonthFoldsTable } from '../schema.ts';

// Links folded per transaction: the group grows while its transactions are quick and shrinks
// when one is slow, so that each holds others up about as long whatever the links' history (a
// month of a few links' rows, or in the first pass years of a busy link's). SQLite's run on the
// redirect's own thread (better-sqlite3 is synchronous) and hold the click writer's lock, so
// theirs are kept short; PostgreSQL's only hold the state row.
const MAX_LINKS_PER_STEP = 10_000;
const FIRST_LINKS_PER_STEP = 100;
const STEP_TARGET_MS: Readonly<Record<Engine, number>> = { sqlite: 20, postgres: 100 };
// How long the folding state read by statistics is kept: it only moves forward, so an older
// copy merely sends a read to the daily rows it could have skipped.
const STATE_TTL_MS = 60_000;
// A month's quarter by its first month, as core/stats/rollup-months.ts's quarterOf.
const QUARTER_OF_MONTH = sql<string>`substr(month, 1, 5) || case
  when substr(month, 6, 2) < '04' then '01' when substr(month, 6, 2) < '07' then '04' when substr(month, 6, 2) < '10' then '07' else '10' end`;

type FoldState = Pick<RollupMonthFoldsTable, 'folded_before' | 'pass_to' | 'pass_last_link_id' | 'through_link_id'>;

/**
 * The monthly rollups (click_rollup_months, docs/design/statistics.md): folds the daily rows of finished
 * months and tells the statistics which months of a link are folded. A pass folds every month
 * not yet folded before its target, link by link in id order, each group of links in a
 * transaction that also moves the state on; instances folding at once take turns on the state
 * row and never fold a link twice. A link's whole quarters are summed from its months in the
 * step that folds their last month (click_rollup_quarters). Daily rows are never
 * deleted: only reads change. On PostgreSQL a round first moves the settled days' rows out of the
 * recent days' table (RecentRollups).
 */
export class SqlRollupMonths implements MonthFolder {
  private cached: { state: FoldState; at: number } | null = null;

  private readonly now: () => number;
  private readonly maxLinksPerStep: number;
  private readonly stepTargetMs: number;
  private linksPerStep: number;
  /** PostgreSQL's table of the days still getting clicks (migration 0038). */
  private readonly recent: RecentRollups | null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
    options: { now?: () => number; maxLinksPerStep?: number; stepTargetMs?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxLinksPerStep = options.maxLinksPerStep ?? MAX_LINKS_PER_STEP;
    this.stepTargetMs = options.stepTargetMs ?? STEP_TARGET_MS[engine];
    this.linksPerStep = Math.min(FIRST_LINKS_PER_STEP, this.maxLinksPerStep);
    this.recent = engine === 'postgres' ? new RecentRollups(db) : null;
  }

  /** Months before the answer have the link's rows in click_rollup_months, and the quarters wholly before it in click_rollup_quarters. */
  async foldedBefore(linkId: number): Promise<string> {
    const at = this.now();
    if (this.cached === null || at - this.cached.at > STATE_TTL_MS)
      this.cached = { state: await this.state(this.db), at };
    const { state } = this.cached;
    return state.pass_to !== null && linkId <= (state.through_link_id ?? 0) ? state.pass_to : state.folded_before;
  }

  async foldBefore(month: string, round: FoldRound): Promise<number> {
    await this.recent?.settleBefore(settledBefore(round.now), round.ms);
    // Most rounds find every month folded: a read, no transaction.
    const seen = await this.state(this.db);
    if (seen.pass_to === null && seen.folded_before >= month) return 0;
    let folded = 0;
    const until = performance.now() + round.ms;
    // A round that has folded nothing goes on until it does, or finds nothing to do now.
    while (folded < round.links && (folded === 0 || performance.now() < until)) {
      const started = performance.now();
      const step = await this.db.transaction().execute((trx) => this.step(trx, month, round.now));
      if (step === null) break;
      if (step > 0) this.resize(performance.now() - started);
      folded += step;
      // Requests waiting meanwhile go first (on SQLite the step held the thread).
      await yieldToIo();
    }
    this.cached = null;
    return folded;
  }

  private resize(tookMs: number): void {
    if (tookMs > 2 * this.stepTargetMs) this.linksPerStep = Math.max(1, Math.floor(this.linksPerStep / 2));
    else if (tookMs < this.stepTargetMs / 2) this.linksPerStep = Math.min(this.maxLinksPerStep, this.linksPerStep * 2);
  }

  /** One transaction of a pass: starts it, folds a group of links, or ends it; null: nothing to do now. */
  private async step(trx: Kysely<Database>, month: string, now: number): Promise<number | null> {
    const state = await this.state(trx, true);
    // A dead writer's batches still to be rolled up would land in days already folded.
    if (await recoveryDue(trx, now)) return null;
    if (state.pass_to === null) {
      if (state.folded_before >= month) return null;
      const last = await trx
        .selectFrom('links')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      await this.moveOn(trx, { pass_to: month, pass_last_link_id: Number(last?.id ?? 0), through_link_id: 0 });
      return 0;
    }
    const through = state.through_link_id ?? 0;
    // The group: the next links in id order, read off the primary key (most have few rows or
    // none in the months folded, so a group may be thousands).
    const group = await trx
      .selectFrom((eb) =>
        eb
          .selectFrom('links')
          .select('id')
          .where('id', '>', through)
          .where('id', '<=', state.pass_last_link_id ?? 0)
          .orderBy('id')
          .limit(this.linksPerStep)
          .as('g'),
      )
      .select((eb) => [eb.fn.countAll<number | string>().as('links'), eb.fn.max('id').as('last')])
      .executeTakeFirstOrThrow();
    const links = Number(group.links);
    if (links === 0) {
      await this.moveOn(trx, {
        folded_before: state.pass_to,
        pass_to: null,
        pass_last_link_id: null,
        through_link_id: null,
      });
      return 0;
    }
    const last = Number(group.last);
    // Every daily row of an id in the group's range is one of its links' (a deleted link's go with it).
    await sql`insert into click_rollup_months (link_id, dimension, month, value, count)
      select link_id, dimension, substr(day, 1, 7), value, sum(count) from click_rollups
      where link_id > ${through} and link_id <= ${last} and day >= ${`${state.folded_before}-01`} and day < ${`${state.pass_to}-01`}
      group by link_id, dimension, substr(day, 1, 7), value`.execute(trx);
    // The quarters whose last month this pass folds: their earlier months were folded by earlier
    // passes (for every link), so each quarter is summed once, when it is whole (docs/design/statistics.md).
    // A pass within a quarter closes none.
    const [quartersFrom, quartersBefore] = [quarterOf(state.folded_before), quarterOf(state.pass_to)];
    if (quartersFrom < quartersBefore)
      await sql`insert into click_rollup_quarters (link_id, dimension, quarter, value, count)
        select link_id, dimension, ${QUARTER_OF_MONTH}, value, sum(count) from click_rollup_months
        where link_id > ${through} and link_id <= ${last} and month >= ${quartersFrom} and month < ${quartersBefore}
        group by link_id, dimension, ${QUARTER_OF_MONTH}, value`.execute(trx);
    await this.moveOn(trx, { through_link_id: last });
    return links;
  }

  private async moveOn(trx: Kysely<Database>, change: Partial<FoldState>): Promise<void> {
    await trx.updateTable('rollup_month_folds').set(change).where('id', '=', 1).execute();
  }

  private async state(db: Kysely<Database>, lock = false): Promise<FoldState> {
    const q = db
      .selectFrom('rollup_month_folds')
      .select(['folded_before', 'pass_to', 'pass_last_link_id', 'through_link_id'])
      .where('id', '=', 1);
    // SQLite's transactions begin immediate (one writer at a time); PostgreSQL's instances take turns on the row.
    return await (lock && this.engine === 'postgres' ? q.forUpdate() : q).executeTakeFirstOrThrow();
  }
}
