import type SQLite from 'better-sqlite3';
import type { ClickBatch } from '../../core/clicks/ports.ts';
import { RollupWindow, type DrainedRollups } from '../../core/stats/rollup-window.ts';
import { sortIncrements, uniqueIncrements } from '../../core/stats/rollups.ts';

export interface SqliteClickWriterOptions {
  /** Above this many rows held, the rollup window is written at once. */
  maxWindowRows: number;
  /** A rollup write that failed; the window keeps its rows for the next one. */
  onError(error: unknown): void;
}

/**
 * The SQLite click writer of the writer thread: the same rows, counters and rollups as
 * SqlClickStore, through statements prepared once rather than one large query built per batch
 * (building and parsing those cost the thread more than SQLite's own work). Rollups are summed
 * in a RollupWindow and written by flushRollups(), which the thread calls on a timer and
 * before it answers a flush (docs/adr/0008-rollup-window.md).
 */
export class SqliteClickWriter {
  private readonly window = new RollupWindow();
  private readonly insertClick: SQLite.Statement;
  private readonly addClicks: SQLite.Statement;
  private readonly setRotation: SQLite.Statement;
  private readonly insertMark: SQLite.Statement;
  private readonly upsertRollup: SQLite.Statement;
  private readonly writeBatchNow: (batch: ClickBatch) => void;
  private readonly writeRollupsNow: (drained: DrainedRollups) => void;

  constructor(private readonly db: SQLite.Database, private readonly options: SqliteClickWriterOptions) {
    // A link deleted while its clicks were buffered has no row to point at: its clicks are
    // dropped (the foreign key would fail the whole batch), as its counters and rollups are.
    const live = 'exists (select 1 from links where id = @linkId)';
    this.insertClick = db.prepare(`insert into clicks (link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot)
      select @linkId, @accountId, @at, @country, @city, @browser, @platform, @device, @language, @referrerHost, @isBot where ${live}`);
    this.addClicks = db.prepare('update links set clicks = clicks + ? where id = ?');
    this.setRotation = db.prepare('update links set last_rotation = ? where id = ?');
    this.insertMark = db.prepare(`insert into click_visitors (day, link_id, visitor) select @day, @linkId, @visitor where ${live}
      on conflict do nothing`);
    this.upsertRollup = db.prepare(`insert into click_rollups (link_id, dimension, day, value, count)
      select @linkId, @dimension, @day, @value, @count where ${live}
      on conflict (link_id, dimension, day, value) do update set count = count + excluded.count`);
    this.writeBatchNow = db.transaction((batch: ClickBatch) => this.writeRows(batch));
    this.writeRollupsNow = db.transaction((drained: DrainedRollups) => this.writeWindow(drained));
  }

  /** Rows, links.clicks and last_rotation in one transaction; the rollups join the window. */
  writeBatch(batch: ClickBatch): void {
    this.writeBatchNow(batch);
    this.window.add(batch.clicks);
    if (this.window.size < this.options.maxWindowRows) return;
    // The batch is written: a rollup failure must not make the sink write it again.
    try {
      this.flushRollups();
    } catch (error) {
      this.options.onError(error);
    }
  }

  /** Writes the rollup window: visitor marks first (the new ones are `unique`), then the sums. */
  flushRollups(): void {
    if (this.window.size === 0) return;
    const drained = this.window.drain();
    try {
      this.writeRollupsNow(drained);
    } catch (error) {
      this.window.putBack(drained);
      throw error;
    }
  }

  private writeRows(batch: ClickBatch): void {
    for (const c of batch.clicks) {
      this.insertClick.run({
        linkId: c.linkId, accountId: c.accountId, at: c.at, country: c.country, city: c.city, browser: c.browser,
        platform: c.platform, device: c.device, language: c.language, referrerHost: c.referrerHost, isBot: c.isBot ? 1 : 0,
      });
    }
    // In id order, as SqlClickStore, though one SQLite writer cannot deadlock with itself.
    for (const [id, n] of [...batch.counts].sort(([a], [b]) => a - b)) this.addClicks.run(n, id);
    for (const [id, position] of [...batch.rotations].sort(([a], [b]) => a - b)) this.setRotation.run(position, id);
  }

  private writeWindow({ increments, marks }: DrainedRollups): void {
    const fresh: Array<{ linkId: number; day: string }> = [];
    for (const m of marks) {
      if (this.insertMark.run({ day: m.day, linkId: m.linkId, visitor: m.visitor }).changes > 0) fresh.push(m);
    }
    for (const r of sortIncrements([...increments, ...uniqueIncrements(fresh)])) {
      this.upsertRollup.run({ linkId: r.linkId, dimension: r.dimension, day: r.day, value: r.value, count: r.count });
    }
  }
}
