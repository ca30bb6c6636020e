// A click write whose COMMIT went through but whose answer was lost (a network cut): the writer
// keeps the batch apart, asks the database whether it committed, and takes it as written rather
// than writing it again (docs/design/clicks.md, docs/operations.md). The real writes of each engine are
// wrapped so that the first writeRows commits and then rejects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { ClickWriter } from '../../../src/adapters/clicks/writer/click-writer.ts';
import type { ClickWrites } from '../../../src/adapters/clicks/writer/click-writes.ts';
import { PgClickWrites } from '../../../src/adapters/clicks/postgres/pg-click-writes.ts';
import { lostCommit } from '../../../src/adapters/clicks/postgres/pg-lost-commit.ts';
import { SqliteClickWrites } from '../../../src/adapters/clicks/sqlite/sqlite-click-writes.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import { SqlClickRecovery } from '../../../src/adapters/clicks/recovery/click-recovery.ts';
import { insertClickArrays, type PgRecord } from '../../../src/adapters/clicks/postgres/pg-click-statements.ts';
import { pgClickArrays } from '../../../src/adapters/clicks/postgres/pg-click-arrays.ts';
import { batchMessage, encodeClicks, toBatch } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { ENGINES, POSTGRES_SKIP } from '../../support/harness.ts';
import { aClick } from '../../support/clicks.ts';
import { losingFirstAnswer } from '../../support/cut-click-writes.ts';
import { openClickDb, type ClickDb } from './click-db.ts';

const DAY = '2026-11-24';

/** Click i over `links`: every tenth a bot, countries and hours varied. */
const clickOf = (i: number, links: readonly number[], accountId: number): Click =>
  aClick({
    linkId: links[i % links.length]!,
    accountId,
    at: Date.parse(`${DAY}T00:00:00Z`) + (i % 24) * 3_600_000 + i,
    day: DAY,
    hour: i % 24,
    country: ['DE', 'US', null][i % 3]!,
    isBot: i % 10 === 0,
  });
const messageOf = (links: readonly number[], accountId: number, from: number, count: number) =>
  batchMessage(
    toBatch(
      Array.from({ length: count }, (_, k) => ({ click: clickOf(from + k, links, accountId), rotation: from + k })),
    ),
  );

/** What the database holds for these links: click rows, links.clicks, and the rollups' totals (all and bots). */
async function held(db: Kysely<Database>, links: readonly number[]) {
  const { rows } = await sql<{ rows: number; clicks: number; total: number; bot: number; pending: number }>`
    select (select count(*) from clicks where link_id in (${sql.join(links)})) as rows,
           ((select coalesce(sum(clicks), 0) from links where id in (${sql.join(links)})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id in (${sql.join(links)}))) as clicks,
           (select coalesce(sum(count), 0) from click_rollups where dimension = 'total' and link_id in (${sql.join(links)})) as total,
           (select coalesce(sum(count), 0) from click_rollups where dimension = 'bot' and link_id in (${sql.join(links)})) as bot,
           (select count(*) from click_batches_pending) as pending`.execute(db);
  const r = rows[0]!;
  return {
    rows: Number(r.rows),
    clicks: Number(r.clicks),
    total: Number(r.total),
    bot: Number(r.bot),
    pending: Number(r.pending),
  };
}
/** What clicks [0, count) over `links` should leave for those of `kept`. */
function expected(links: readonly number[], kept: readonly number[], count: number) {
  const mine = Array.from({ length: count }, (_, i) => i).filter((i) => kept.includes(links[i % links.length]!));
  const humans = mine.filter((i) => i % 10 !== 0).length;
  return { rows: mine.length, clicks: humans, total: humans, bot: mine.length - humans, pending: 0 };
}

for (const engine of ENGINES) {
  describe(`a click write whose answer was lost [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDb;
    before(async () => {
      db = await openClickDb(engine.name);
    });
    after(async () => {
      await db?.close();
    });
    const realWrites = (owner: string): ClickWrites =>
      engine.name === 'postgres'
        ? new PgClickWrites(db.storage.db, { owner })
        : new SqliteClickWrites(db.storage.sqlite!, { owner, shared: true });
    const writerOver = (writes: ClickWrites, errors: string[]) =>
      new ClickWriter(writes, {
        writeIntervalMs: 60_000,
        windowMs: 60_000,
        promptWindowRows: 0,
        maxBuffered: 1_000_000,
        onError: (e) => errors.push(String(e)),
        onResumed: () => {},
        onWritten: () => {},
        onDropped: () => {},
      });

    test('is not written again: rows, links.clicks (capped or not) and rollups exact; what arrived since is written after it', async () => {
      const links = await db.links(20);
      // Every other link has a click cap: its counter goes with the rows, the others' with the window.
      await db.cap(links.filter((_, k) => k % 2 === 0));
      const errors: string[] = [];
      const writer = writerOver(losingFirstAnswer(realWrites(`lost-${engine.name}`)), errors);
      writer.add(messageOf(links, db.accountId, 0, 600));
      await assert.rejects(writer.write(), /after the COMMIT went through/);
      assert.equal((await held(db.storage.db, links)).rows, 600, 'the rows are committed');
      writer.add(messageOf(links, db.accountId, 600, 400));
      await writer.settle();
      assert.deepEqual(await held(db.storage.db, links), expected(links, links, 1000));
      const { rows } = await sql<{
        id: number;
      }>`select id from clicks where link_id in (${sql.join(links)}) order by id`.execute(db.storage.db);
      const ids = rows.map((r) => Number(r.id));
      assert.deepEqual(
        [...ids].sort((a, b) => a - b),
        ids,
        'the newer arrivals have the later ids',
      );
      assert.equal(errors.filter((e) => /clicks not written/.test(e)).length, 1);
      await writer.close();
    });

    test('a link deleted before the retry: what is left of the batch is counted once, and nothing of the deleted link', async () => {
      const links = await db.links(10);
      const writer = writerOver(losingFirstAnswer(realWrites(`deleted-${engine.name}`)), []);
      writer.add(messageOf(links, db.accountId, 0, 500));
      await assert.rejects(writer.write());
      await db.storage.db.deleteFrom('links').where('id', '=', links[9]!).execute();
      await writer.settle();
      const kept = links.slice(0, 9);
      assert.deepEqual(await held(db.storage.db, kept), expected(links, kept, 500));
      // SQLite's rows of a deleted link wait for the retention job's sweep (docs/design/clicks.md); no rollup counts
      // them.
      const gone = await held(db.storage.db, [links[9]!]);
      assert.deepEqual({ total: gone.total, bot: gone.bot }, { total: 0, bot: 0 });
      await writer.close();
    });

    test("its record claimed by a recovery (the writer's lease ran out during the cut): rolled up there, not written again", async () => {
      const links = await db.links(10);
      const writer = writerOver(losingFirstAnswer(realWrites(`claimed-${engine.name}`)), []);
      writer.add(messageOf(links, db.accountId, 0, 500));
      await assert.rejects(writer.write());
      // The owner holds no lease here: its record is due for recovery at once.
      assert.deepEqual(await new SqlClickRecovery(db.storage.db, engine.name).recover(Date.now()), {
        batches: 1,
        clicks: 500,
      });
      writer.add(messageOf(links, db.accountId, 500, 300));
      await writer.settle();
      assert.deepEqual(await held(db.storage.db, links), expected(links, links, 800));
      await writer.close();
    });

    test("a record a dead writer thread of the same owner left is not taken for the lost write's", async () => {
      const links = await db.links(10);
      const owner = `restarted-${engine.name}`;
      const dead = writerOver(realWrites(owner), []);
      dead.add(messageOf(links, db.accountId, 0, 300));
      await dead.write();
      const restarted = writerOver(losingFirstAnswer(realWrites(owner)), []);
      restarted.add(messageOf(links, db.accountId, 300, 200));
      await assert.rejects(restarted.write());
      await restarted.settle();
      assert.deepEqual(
        await new SqlClickRecovery(db.storage.db, engine.name).recover(Date.now()),
        { batches: 1, clicks: 300 },
        "the dead one's batch only",
      );
      await dead.settle(); // its window, written late, gives way to the recovery
      assert.deepEqual(await held(db.storage.db, links), expected(links, links, 500));
    });
  });
}

describe('a click write whose answer was lost, on PostgreSQL only', { skip: POSTGRES_SKIP ?? false }, () => {
  let db: ClickDb;
  before(async () => {
    db = await openClickDb('postgres');
  });
  after(async () => {
    await db?.close();
  });

  test('a transaction still in progress: no answer yet, its server process ended, then known not to have committed; an id never given: not committed', async () => {
    const links = await db.links(2);
    const other = db.open();
    const state: { recorded: PgRecord | null } = { recorded: null };
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const open = other.db
      .transaction()
      .execute(async (trx) => {
        const rows = pgClickArrays([encodeClicks([clickOf(1, links, db.accountId)])], () => true);
        state.recorded = await insertClickArrays(trx, rows, 'in-progress');
        await held;
      })
      .then(
        () => 'committed',
        () => 'ended',
      );
    while (state.recorded === null) await new Promise((resolve) => setTimeout(resolve, 10));
    const recorded = state.recorded;
    const batch = toBatch([{ click: clickOf(1, links, db.accountId) }]);
    const writerBatch = {
      clicks: batch.clicks,
      linkIds: new Set(links),
      counts: batch.counts,
      rotations: batch.rotations,
    };
    await assert.rejects(lostCommit(db.storage.db, recorded, 'in-progress', 0, writerBatch), /still in progress/);
    release();
    assert.equal(await open, 'ended', 'its server process was ended');
    assert.equal(await lostCommit(db.storage.db, recorded, 'in-progress', 0, writerBatch), null);
    // A transaction id this server never gave (a failover lost it): it did not commit here.
    const future = { ...recorded, xid: String(BigInt(recorded.xid) + 1_000_000_000n) };
    assert.equal(await lostCommit(db.storage.db, future, 'in-progress', 0, writerBatch), null);
    await other.close();
  });
});
