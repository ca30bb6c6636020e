import type SQLite from 'better-sqlite3';
import type { DrainedTotals } from '../window/link-totals.ts';
import type { DrainedRollups, RollupWindow } from '../window/rollup-window.ts';
import { sortIncrements, uniqueIncrements } from '../../../core/stats/rollups.ts';
import { recoverSums } from '../recovery/recovered-clicks.ts';
import { toWritten } from '../recovery/click-recovery-statements.ts';
import type { ClickWrites, RowsWritten } from '../writer/click-writes.ts';
import type { WriterBatch } from '../thread/worker-messages.ts';
import { SEGMENT_MARK_MS } from '../spool/click-spool.ts';

const CLICK_COLUMNS =
  'link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot, rule, variant, qr';
const CLICK_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const FIELDS = 14;
// Click rows go in fifty to a statement: with no index by link on the table (docs/design/clicks.md), binding
// and stepping a statement is a large part of a row's cost, shared out here (docs/performance.md).
const ROWS_PER_INSERT = 50;
// Links remembered to exist (a few MB at most); past this many the memory starts again.
const MAX_KNOWN_LIVE = 200_000;

export interface SqliteClickWritesOptions {
  /**
   * The writer whose lease covers these batches: each is recorded as not yet rolled up (its
   * range of click ids), so that it is recovered should the process die first (docs/design/clicks.md).
   */
  owner?: string | undefined;
  /**
   * The connection is the server's own (an in-memory database): its foreign keys stay on, and
   * no write starts inside a transaction the server has open on it.
   */
  shared?: boolean;
}

/**
 * SQLite's click writes, for ClickWriter: statements prepared once rather than one large query
 * built per batch (building and parsing those cost the thread more than SQLite's own work).
 * Parameters are positional: better-sqlite3 binds an object's by looking each name up, a large
 * share of an insert (docs/performance.md). SQLite runs one writer at a time, so a transaction
 * alone keeps writers apart. The statements run synchronously: on the writer thread, which
 * serves no request (docs/design/clicks.md).
 */
export class SqliteClickWrites implements ClickWrites {
  /** 1 for a link with a click cap, 0 for one without, undefined for none. */
  private readonly isLive: SQLite.Statement<[number]>;
  private readonly dataVersion: SQLite.Statement<[]>;
  /** Links found to exist, and whether each has a click cap; valid while no other connection has written (dataVersion). */
  private readonly knownLive = new Map<number, boolean>();
  private knownVersion: unknown = null;
  private readonly insertClick: SQLite.Statement;
  private readonly insertClicks: SQLite.Statement;
  /** The parameters of one insertClicks, reused. */
  private readonly rowParams: Array<number | string | null> = new Array<number | string | null>(
    ROWS_PER_INSERT * FIELDS,
  );
  private readonly addClicks: SQLite.Statement;
  private readonly setRotation: SQLite.Statement;
  private readonly insertMark: SQLite.Statement;
  private readonly upsertRollup: SQLite.Statement;
  private readonly maxClickId: SQLite.Statement<[]>;
  private readonly recordBatch: SQLite.Statement<[string, number, number]>;
  private readonly releaseBatch: SQLite.Statement<[number]>;
  private readonly isPending: SQLite.Statement<[number, string, number]>;
  private readonly writtenClicks: SQLite.Statement<[number, number]>;
  private readonly markSegment: SQLite.Statement<[string, number]>;
  private readonly pruneSegments: SQLite.Statement<[number]>;
  private readonly isSegment: SQLite.Statement<[string]>;
  private readonly writeRowsNow: (batch: WriterBatch) => RowsWritten;
  private readonly writeWindowNow: (
    rollups: DrainedRollups,
    totals: DrainedTotals,
    pending: readonly number[],
  ) => boolean;
  private checkpointFailing = false;
  /** What the last writeRows committed; null: it threw, and so was rolled back. */
  private lastWritten: RowsWritten | null = null;

  constructor(
    private readonly db: SQLite.Database,
    private readonly options: SqliteClickWritesOptions = {},
  ) {
    // A link deleted while its clicks were buffered has no row to point at: its clicks,
    // counters and rollups are dropped. Each transaction asks once per link (isLive) rather
    // than letting the foreign key check every row, which the connection then need not do:
    // SQLite runs one writer at a time, so no link can go between the check and the write.
    if (!options.shared) db.pragma('foreign_keys = OFF');
    this.isLive = db.prepare('select coalesce(expiration_clicks, 0) > 0 from links where id = ?').pluck();
    this.dataVersion = db.prepare('pragma data_version').pluck();
    this.insertClick = db.prepare(`insert into clicks (${CLICK_COLUMNS}) values ${CLICK_VALUES}`);
    this.insertClicks = db.prepare(
      `insert into clicks (${CLICK_COLUMNS}) values ${Array(ROWS_PER_INSERT).fill(CLICK_VALUES).join(', ')}`,
    );
    this.addClicks = db.prepare('update links set clicks = clicks + ? where id = ?');
    this.setRotation = db.prepare('update links set last_rotation = ? where id = ?');
    this.insertMark = db.prepare(
      'insert into click_visitors (day, link_id, visitor) values (?, ?, ?) on conflict do nothing',
    );
    this.upsertRollup = db.prepare(`insert into click_rollups (link_id, dimension, day, value, count)
      values (?, ?, ?, ?, ?)
      on conflict (link_id, dimension, day, value) do update set count = count + excluded.count`);
    this.maxClickId = db.prepare('select coalesce(max(id), 0) from clicks').pluck();
    this.recordBatch = db.prepare(
      'insert into click_batches_pending (owner, first_click_id, last_click_id) values (?, ?, ?)',
    );
    this.releaseBatch = db.prepare(
      'delete from click_batches_pending where id = ? returning first_click_id, last_click_id',
    );
    this.isPending = db.prepare('select 1 from click_batches_pending where id = ? and owner = ? and id > ?').pluck();
    this.writtenClicks =
      db.prepare(`select c.link_id, c.account_id, c.at, a.timezone, c.country, c.city, c.browser, c.platform, c.device,
      c.language, c.referrer_host, c.is_bot, c.rule, c.variant, c.qr from clicks c join accounts a on a.id = c.account_id where c.id between ? and ? order by c.id`);
    this.markSegment = db.prepare('insert into click_spool_segments (id, written_at) values (?, ?)');
    this.pruneSegments = db.prepare('delete from click_spool_segments where written_at < ?');
    this.isSegment = db.prepare('select 1 from click_spool_segments where id = ?').pluck();
    // Immediate: the write lock is taken at BEGIN, so what liveLinks reads (data_version, then
    // links) is the latest commit, and no other connection can delete a link until the end.
    // better-sqlite3's transaction variants pass `this` only on to the arrow they wrap, which ignores it.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    this.writeRowsNow = db.transaction((batch: WriterBatch) => this.insertRows(batch)).immediate;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- as above
    this.writeWindowNow = db.transaction(
      (rollups: DrainedRollups, totals: DrainedTotals, pending: readonly number[]) => {
        const released = this.release(pending);
        if (released.length < pending.length) {
          // A recovery claimed some of them (the lease ran out while this thread stalled): the
          // window is dropped and what is still ours rolled up from the rows, each batch once.
          const { window, counts } = recoverSums(released.flatMap((range) => this.written(range)));
          this.writeRollups(window.drain());
          const live = this.liveLinks(counts.keys());
          this.writeTotals({
            counts: new Map([...counts].filter(([id]) => live.get(id) === false)),
            rotations: totals.rotations,
          });
          return false;
        }
        this.writeRollups(rollups);
        this.writeTotals(totals);
        return true;
      },
    ).immediate;
  }

  async writeRows(batch: WriterBatch): Promise<RowsWritten> {
    this.lastWritten = null;
    this.notInServerTransaction();
    return (this.lastWritten = this.writeRowsNow(batch));
  }

  async segmentWritten(id: string): Promise<boolean> {
    return this.isSegment.get(id) !== undefined;
  }

  /**
   * The statements run in this thread, COMMIT included: a writeRows that threw was rolled back,
   * and one that returned committed (only a caller can have lost its answer), so what it wrote,
   * `later` included, is known here. The database tells whether its record is still pending
   * (ids are AUTOINCREMENT ones, never given twice): gone, a recovery has rolled the batch up.
   * Without an owner no record is made: null, the batch is written again, as PostgreSQL does.
   */
  async committed(_batch: WriterBatch, since: number): Promise<RowsWritten | null> {
    const written = this.lastWritten;
    if (written === null || this.options.owner === undefined) return null;
    if (written.recorded === null) return written; // no click of a live link: nothing was written
    this.notInServerTransaction();
    if (this.isPending.get(written.recorded, this.options.owner, since) === undefined)
      return { recorded: null, later: [], rolledUp: true };
    return written;
  }

  async writeWindow(window: RollupWindow, totals: DrainedTotals, pending: readonly number[]): Promise<boolean> {
    this.notInServerTransaction();
    const rollups = window.drain();
    try {
      return this.writeWindowNow(rollups, totals, pending);
    } catch (error) {
      window.putBack(rollups);
      throw error;
    }
  }

  /**
   * While nothing is written, copies what the other connection wrote into the database file
   * (PASSIVE: waits for no one); with nothing new in the WAL that is a look at its header. The
   * server's commits leave their checkpoints to this connection while it runs (docs/design/clicks.md).
   */
  idle(): void {
    if (this.options.shared) return;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.checkpointFailing = false;
    } catch (error) {
      // A checkpoint that fails (a full disk) is told once until one succeeds; the clicks' own commits do not depend on it.
      if (!this.checkpointFailing)
        console.error('linkpix: click writer: the idle WAL checkpoint failed; retried on every idle tick', error);
      this.checkpointFailing = true;
    }
  }

  close(): Promise<void> {
    if (!this.options.shared) this.db.close();
    return Promise.resolve();
  }

  /** The server's connection may be inside a transaction of its own: a write then waits for the next try rather than joining it. */
  private notInServerTransaction(): void {
    if (this.options.shared && this.db.inTransaction)
      throw new Error('the database connection is inside another transaction; the clicks are written at the next try');
  }

  /** Deletes these batches' records; answers the id ranges of those that were still there. */
  private release(ids: readonly number[]): Array<[number, number]> {
    const released: Array<[number, number]> = [];
    for (const id of ids) {
      const row = this.releaseBatch.get(id) as { first_click_id: number; last_click_id: number } | undefined;
      if (row) released.push([row.first_click_id, row.last_click_id]);
    }
    return released;
  }

  private written([first, last]: [number, number]) {
    return (this.writtenClicks.all(first, last) as Array<Parameters<typeof toWritten>[0]>).map(toWritten);
  }

  /**
   * Of these links, the ones that still exist (inside the caller's transaction). Links are
   * deleted only by the other connections, and SQLite's data_version changes when one of them
   * commits: until it does, a link found once is still there, and is not looked up again (ten
   * thousand lookups a transaction on a busy day).
   */
  private liveLinks(ids: Iterable<number>): Map<number, boolean> {
    const version = this.dataVersion.get();
    // The server's own connection deletes links without changing data_version: nothing is remembered.
    if (version !== this.knownVersion || this.knownLive.size > MAX_KNOWN_LIVE || this.options.shared) {
      this.knownLive.clear();
      this.knownVersion = version;
    }
    const live = new Map<number, boolean>();
    for (const id of ids) {
      let capped = this.knownLive.get(id);
      if (capped === undefined) {
        const found = this.isLive.get(id) as number | undefined;
        if (found === undefined) continue;
        capped = found === 1;
        this.knownLive.set(id, capped);
      }
      live.set(id, capped);
    }
    return live;
  }

  /**
   * Writes the batch's rows and the capped links' counters; answers the batch's record (click_batches_pending), or null when none was made, and the
   * counts left for the window: a capped link's count goes with its rows (docs/design/clicks.md).
   */
  private insertRows({ clicks, linkIds, counts, segment }: WriterBatch): RowsWritten {
    if (segment !== undefined) this.markSpooled(segment);
    const live = this.liveLinks(linkIds);
    // One writer at a time: the rows inserted here are the ids after the largest one.
    const before = this.options.owner === undefined ? 0 : (this.maxClickId.get() as number);
    const p = this.rowParams;
    let rows = 0;
    for (const c of clicks) {
      if (!live.has(c.linkId)) continue;
      let i = rows * FIELDS;
      p[i++] = c.linkId;
      p[i++] = c.accountId;
      p[i++] = c.at;
      p[i++] = c.country;
      p[i++] = c.city;
      p[i++] = c.browser;
      p[i++] = c.platform;
      p[i++] = c.device;
      p[i++] = c.language;
      p[i++] = c.referrerHost;
      p[i++] = c.isBot ? 1 : 0;
      p[i++] = c.rule ?? null;
      p[i++] = c.variant ?? null;
      p[i] = c.qr === true ? 1 : 0;
      if (++rows === ROWS_PER_INSERT) {
        this.insertClicks.run(...p);
        rows = 0;
      }
    }
    // The last few, in order, one statement each.
    for (let r = 0; r < rows; r++) this.insertClick.run(p.slice(r * FIELDS, (r + 1) * FIELDS));
    const later: Array<[number, number]> = [];
    for (const [id, n] of counts) {
      if (live.get(id) === true) this.addClicks.run(n, id);
      else later.push([id, n]);
    }
    if (this.options.owner === undefined) return { recorded: null, later };
    const last = this.maxClickId.get() as number;
    if (last === before) return { recorded: null, later };
    return { recorded: Number(this.recordBatch.run(this.options.owner, before + 1, last).lastInsertRowid), later };
  }

  /** A spool segment's mark, in its rows' transaction; marks past SEGMENT_MARK_MS go. */
  private markSpooled(segment: string): void {
    const now = Date.now();
    this.pruneSegments.run(now - SEGMENT_MARK_MS);
    this.markSegment.run(segment, now);
  }

  /** A link deleted since its rows were written has no row to update: the update changes nothing. */
  private writeTotals({ counts, rotations }: DrainedTotals): void {
    // In id order, as PostgreSQL's writes, though one SQLite writer cannot deadlock with itself.
    for (const [id, n] of [...counts].sort(([a], [b]) => a - b)) this.addClicks.run(n, id);
    for (const [id, position] of [...rotations].sort(([a], [b]) => a - b)) this.setRotation.run(position, id);
  }

  private writeRollups({ increments, marks }: DrainedRollups): void {
    const live = this.liveLinks(new Set(increments.map((r) => r.linkId)));
    const fresh: Array<{ linkId: number; day: string }> = [];
    for (const m of marks) {
      if (live.has(m.linkId) && this.insertMark.run(m.day, m.linkId, m.visitor).changes > 0) fresh.push(m);
    }
    for (const r of sortIncrements([...increments, ...uniqueIncrements(fresh)])) {
      if (live.has(r.linkId)) this.upsertRollup.run(r.linkId, r.dimension, r.day, r.value, r.count);
    }
  }
}
