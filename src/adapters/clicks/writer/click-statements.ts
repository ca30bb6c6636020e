import type { Transaction } from 'kysely';
import type { RollupIncrement, VisitorMark } from '../../../core/stats/rollups.ts';
import type { Database } from '../../storage/schema.ts';

/**
 * The links a transaction has kept, each with whether it has a click cap: a capped link's clicks
 * are counted with their rows, every other link's with the window (docs/design/clicks.md).
 */
export type KeptLinks = ReadonlyMap<number, boolean>;

/** What a batch adds to one link: human clicks, and the rotation position last served (if any). */
export interface LinkUpdate {
  id: number;
  clicks: number;
  rotation: number | null;
}

/**
 * The statements of PostgreSQL's click writes (pg-click-writes.ts, whose batch inserts its rows as
 * binary arrays: pg-click-statements.ts's insertClickArrays) and of the recovery, in the form each
 * engine writes fastest. A window is written with keepLinks, insertMarks, upsertRollups,
 * addAccountDays and countWindow, in that order, each with its rows in key order: the order in
 * which every writer takes its locks (docs/design/clicks.md, invariant 7).
 */
export interface ClickStatements {
  /**
   * The links that still exist among `ids` (ascending), kept from being deleted until the end
   * of the transaction by a lock that neither a counter update nor an edit waits for.
   */
  keepLinks(trx: Transaction<Database>, ids: readonly number[]): Promise<KeptLinks>;
  /**
   * links.clicks += clicks; last_rotation = rotation where there is one: a batch's capped links.
   * Where writers run at once, the rows are locked in the order given (id order) before any is
   * written.
   */
  updateLinks(trx: Transaction<Database>, updates: readonly LinkUpdate[]): Promise<void>;
  /**
   * A window's counts of links without a click cap, and its rotations: on PostgreSQL into
   * link_click_counts, settled into the links' rows later (docs/design/clicks.md); on SQLite as updateLinks.
   */
  countWindow(trx: Transaction<Database>, updates: readonly LinkUpdate[]): Promise<void>;
  /** Inserts the marks not yet there; answers the (link, day) of each one that was new. */
  insertMarks(
    trx: Transaction<Database>,
    marks: readonly VisitorMark[],
  ): Promise<Array<{ linkId: number; day: string }>>;
  /** count = count + increment, creating rows as needed. */
  upsertRollups(trx: Transaction<Database>, rows: readonly RollupIncrement[]): Promise<void>;
  /**
   * Adds the window's `total` increments to their accounts' days (account_click_days), after
   * every rollup row, in (account, day) order; then its `total` and `qr` increments to their
   * workspaces' link days (account_link_days), in (account, day, link) order; then to their value
   * days (account_value_days, each under its link's tags, space, UTM values and host), in
   * (account, day, name, value) order: the last locks a window takes on rollups' behalf.
   */
  addAccountDays(trx: Transaction<Database>, totals: readonly RollupIncrement[]): Promise<void>;
}
