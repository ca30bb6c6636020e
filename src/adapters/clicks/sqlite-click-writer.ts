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
  private readonly isLive: SQLite.Statement<[number]>;
  private readonly insertClick: SQLite.Statement;
  private readonly addClicks: SQLite.Statement;
  private readonly setRotation: SQLite.Statement;
  private readonly insertMark: SQLite.Statement;
  private readonly upsertRollup: SQLite.Statement;
  private readonly writeBatchNow: (batch: ClickBatch) => void;
  private readonly writeRollupsNow: (drained: DrainedRollups) => void;

  constructor(private readonly db: SQLite.Database, private readonly options: SqliteClickWriterOptions) {
    // A link deleted while its clicks were buffered has no row to point at: its clicks,
    // counters and rollups are dropped. Each transaction asks once per link (isLive) rather
    // than letting the foreign key check every row, which the connection then need not do:
    // SQLite runs one writer at a time, so no link can go between the check and the write.
    db.pragma('foreign_keys = OFF');
    this.isLive = db.prepare('select 1 from links where id = ?').pluck();
    this.insertClick = db.prepare(`insert into clicks (link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot)
      values (@linkId, @accountId, @at, @country, @city, @browser, @platform, @device, @language, @referrerHost, @isBot)`);
    this.addClicks = db.prepare('update links set clicks = clicks + ? where id = ?');
    this.setRotation = db.prepare('update links set last_rotation = ? where id = ?');
    this.insertMark = db.prepare('insert into click_visitors (day, link_id, visitor) values (@day, @linkId, @visitor) on conflict do nothing');
    this.upsertRollup = db.prepare(`insert into click_rollups (link_id, dimension, day, value, count)
      values (@linkId, @dimension, @day, @value, @count)
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

  /** Of these links, the ones that still exist (inside the caller's transaction). */
  private liveLinks(ids: Iterable<number>): Set<number> {
    const live = new Set<number>();
    for (const id of ids) if (this.isLive.get(id) !== undefined) live.add(id);
    return live;
  }

  private writeRows(batch: ClickBatch): void {
    const live = this.liveLinks(new Set(batch.clicks.map((c) => c.linkId)));
    for (const c of batch.clicks) {
      if (!live.has(c.linkId)) continue;
      this.insertClick.run({
        linkId: c.linkId, accountId: c.accountId, at: c.at, country: c.country, city: c.city, browser: c.browser,
        platform: c.platform, device: c.device, language: c.language, referrerHost: c.referrerHost, isBot: c.isBot ? 1 : 0,
      });
    }
    // In id order, as SqlClickStore, though one SQLite writer cannot deadlock with itself.
    for (const [id, n] of [...batch.counts].sort(([a], [b]) => a - b)) if (live.has(id)) this.addClicks.run(n, id);
    for (const [id, position] of [...batch.rotations].sort(([a], [b]) => a - b)) if (live.has(id)) this.setRotation.run(position, id);
  }

  private writeWindow({ increments, marks }: DrainedRollups): void {
    const live = this.liveLinks(new Set(increments.map((r) => r.linkId)));
    const fresh: Array<{ linkId: number; day: string }> = [];
    for (const m of marks) {
      if (live.has(m.linkId) && this.insertMark.run({ day: m.day, linkId: m.linkId, visitor: m.visitor }).changes > 0) fresh.push(m);
    }
    for (const r of sortIncrements([...increments, ...uniqueIncrements(fresh)])) {
      if (!live.has(r.linkId)) continue;
      this.upsertRollup.run({ linkId: r.linkId, dimension: r.dimension, day: r.day, value: r.value, count: r.count });
    }
  }
}
