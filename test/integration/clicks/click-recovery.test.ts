// Recovery of click batches whose rows were written and whose rollups died with their writer's
// window (docs/design/clicks.md): a "crash" here is a store dropped without settle(). On both engines
// through the in-process click writer (PostgreSQL, an in-memory SQLite), and on a SQLite file
// through the writer thread's ClickWriter over SqliteClickWrites. Both keep the links' counters in the window with the rollups.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { ClickWriter } from '../../../src/adapters/clicks/writer/click-writer.ts';
import { SqliteClickWrites } from '../../../src/adapters/clicks/sqlite/sqlite-click-writes.ts';
import { connect, openSqlite, type Storage } from '../../../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import type { Database } from '../../../src/adapters/storage/schema.ts';
import { SqlClickRecovery } from '../../../src/adapters/clicks/recovery/click-recovery.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { batchMessage, toBatch, writeDue } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { ENGINES } from '../../support/harness.ts';
import { openClickDb, type ClickDb } from './click-db.ts';
import { linkRow } from '../../support/link-rows.ts';

const DAY = '2026-11-24';
const COUNTRIES = ['DE', 'US', 'FR', null];

/** Click i over `links`, its day and hour those of its instant in UTC (the test account's zone): every tenth a bot. */
function clickOf(i: number, links: readonly number[], accountId: number): Click {
  const hour = i % 24;
  return {
    linkId: links[i % links.length]!,
    accountId,
    at: Date.parse(`${DAY}T00:00:00Z`) + hour * 3_600_000 + i,
    day: DAY,
    hour,
    visitor: i % 10 === 0 ? null : `v${i % 37}`,
    country: COUNTRIES[i % 4]!,
    city: null,
    browser: ['Firefox', 'Chrome', 'Safari'][i % 3]!,
    platform: 'Linux',
    device: 'desktop',
    language: i % 2 ? 'de' : 'en',
    referrerHost: `r${i % 7}.example`,
    isBot: i % 10 === 0,
  };
}
const batchesOf = (links: readonly number[], accountId: number, count: number, size: number, first = 0) =>
  Array.from({ length: Math.ceil(count / size) }, (_, b) =>
    toBatch(
      Array.from({ length: Math.min(size, count - b * size) }, (_, k) => ({
        click: clickOf(first + b * size + k, links, accountId),
        rotation: first + b * size + k,
      })),
    ),
  );
const humans = (count: number, first = 0) =>
  Array.from({ length: count }, (_, i) => first + i).filter((i) => i % 10 !== 0).length;

/** The rollups of these links summed by dimension and value, `unique` left out (never rebuilt). */
async function breakdown(db: Kysely<Database>, links: readonly number[]): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('click_rollups')
    .select(['dimension', 'value'])
    .select((eb) => eb.fn.sum<number>('count').as('n'))
    .where('link_id', 'in', [...links])
    .where('dimension', '!=', 'unique')
    .groupBy(['dimension', 'value'])
    .execute();
  return Object.fromEntries(rows.map((r) => [`${r.dimension}:${r.value}`, Number(r.n)]));
}
async function counts(db: Kysely<Database>, links: readonly number[]) {
  const { rows } = await sql<{ clicks: number; rows: number; total: number; pending: number }>`
    select ((select coalesce(sum(clicks), 0) from links where id in (${sql.join(links)})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id in (${sql.join(links)}))) as clicks,
           (select count(*) from clicks where link_id in (${sql.join(links)})) as rows,
           (select coalesce(sum(count), 0) from click_rollups where dimension = 'total' and link_id in (${sql.join(links)})) as total,
           (select count(*) from click_batches_pending) as pending`.execute(db);
  const r = rows[0]!;
  return { clicks: Number(r.clicks), rows: Number(r.rows), total: Number(r.total), pending: Number(r.pending) };
}

/**
 * The account's day in its value days (migration 0054): every click (`qr` ''), and every click
 * under some host (`destinations`); both are the account's clicks that day when each click's
 * value rows were written with it, as a recovery writes them.
 */
async function valueDay(db: Kysely<Database>, accountId: number) {
  const sum = async (name: string, value?: string) => {
    let q = db
      .selectFrom('account_value_days')
      .select((eb) => eb.fn.sum<number | string>('clicks').as('n'))
      .where('account_id', '=', accountId)
      .where('day', '=', DAY)
      .where('name', '=', name);
    if (value !== undefined) q = q.where('value', '=', value);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  };
  const days = await db
    .selectFrom('account_click_days')
    .select('count')
    .where('account_id', '=', accountId)
    .where('day', '=', DAY)
    .executeTakeFirst();
  return { days: Number(days?.count ?? 0), all: await sum('qr', ''), hosts: await sum('destinations') };
}

for (const engine of ENGINES) {
  describe(
    `click recovery through the in-process click writer [${engine.name}]`,
    { skip: engine.skip ?? false },
    () => {
      let db: ClickDb;
      let recovery: SqlClickRecovery;
      before(async () => {
        db = await openClickDb(engine.name);
        recovery = new SqlClickRecovery(db.storage.db, engine.name);
      });
      after(async () => {
        await db?.close();
      });
      const storeOf = (owner: string) =>
        InProcessClickWriter.over(db.storage, { windowMs: 60_000, onError: (e) => assert.fail(String(e)), owner });

      test('a writer that dies with its window: its batches are rolled up from their rows, as a settled window would have', async () => {
        const [lost, reference] = [await db.links(300), await db.links(300)];
        const dead = storeOf('dead');
        for (const batch of batchesOf(lost, db.accountId, 3000, 200)) await writeDue(dead, batch);
        const crashed = await counts(db.storage.db, lost);
        assert.equal(crashed.rows, 3000);
        assert.ok(crashed.total < humans(3000), `the window held rollups back (${crashed.total} written)`);
        assert.equal(crashed.clicks, crashed.total, 'and the counters with them');
        assert.ok(crashed.pending > 0);

        const settled = storeOf('reference');
        for (const batch of batchesOf(reference, db.accountId, 3000, 200)) await writeDue(settled, batch);
        await settled.settle();

        const recovered = await recovery.recover(Date.now());
        assert.ok(recovered.batches > 0 && recovered.clicks <= 3000, JSON.stringify(recovered));
        assert.deepEqual(await counts(db.storage.db, lost), {
          clicks: humans(3000),
          rows: 3000,
          total: humans(3000),
          pending: 0,
        });
        assert.deepEqual(await breakdown(db.storage.db, lost), await breakdown(db.storage.db, reference));
        // The recovered clicks are in their day's value days, under their links' values.
        const values = await valueDay(db.storage.db, db.accountId);
        assert.ok(values.days >= 2 * humans(3000), JSON.stringify(values));
        assert.deepEqual(values, { days: values.days, all: values.days, hosts: values.days });
        assert.deepEqual(await recovery.recover(Date.now()), { batches: 0, clicks: 0 }, 'once only');
        // Had the writer only stalled, its window, written late, would count nothing twice.
        await dead.settle();
        assert.deepEqual(await counts(db.storage.db, lost), {
          clicks: humans(3000),
          rows: 3000,
          total: humans(3000),
          pending: 0,
        });
      });

      test("a dead writer's capped links were counted with their rows: recovery counts only the others", async () => {
        const links = await db.links(200);
        await db.cap(links.filter((_, k) => k % 2 === 0));
        const dead = storeOf('dead-capped');
        for (const batch of batchesOf(links, db.accountId, 2000, 200)) await writeDue(dead, batch);
        assert.ok(
          (await counts(db.storage.db, links)).clicks < humans(2000),
          'the uncapped links wait with the window',
        );
        assert.ok((await recovery.recover(Date.now())).batches > 0);
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(2000),
          rows: 2000,
          total: humans(2000),
          pending: 0,
        });
        // Settled, so that no window timer outlives the test (docs/design/tests.md); written late, it counts nothing
        // twice.
        await dead.settle();
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(2000),
          rows: 2000,
          total: humans(2000),
          pending: 0,
        });
      });

      test("a live writer's batches are left to it; they are recovered once its lease has run out", async () => {
        const links = await db.links(200);
        await recovery.renew('alive', Date.now() + 60_000);
        const alive = storeOf('alive');
        for (const batch of batchesOf(links, db.accountId, 2000, 200)) await writeDue(alive, batch);
        assert.deepEqual(await recovery.recover(Date.now()), { batches: 0, clicks: 0 });
        assert.ok((await counts(db.storage.db, links)).total < humans(2000));
        assert.ok((await recovery.recover(Date.now() + 61_000)).batches > 0);
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(2000),
          rows: 2000,
          total: humans(2000),
          pending: 0,
        });
        await alive.settle();
        assert.deepEqual(
          await counts(db.storage.db, links),
          { clicks: humans(2000), rows: 2000, total: humans(2000), pending: 0 },
          'its window, written late, counts nothing twice',
        );
      });

      test('a batch records its ids as one range, or lists them (PostgreSQL, a write that crossed into another block of ids): either is recovered once', async () => {
        const links = await db.links(200);
        const dead = storeOf('dead-ranges');
        for (const batch of batchesOf(links, db.accountId, 2000, 200)) await writeDue(dead, batch);
        if (engine.name === 'postgres') {
          const records = async () =>
            (
              await sql<{
                click_ids: unknown;
              }>`select click_ids from click_batches_pending where owner = 'dead-ranges'`.execute(db.storage.db)
            ).rows;
          assert.ok((await records()).length > 1);
          assert.ok(
            (await records()).every((r) => r.click_ids === null),
            'each batch one range of ids',
          );
          await sql`update click_batches_pending p set click_ids = (select array_agg(c.id order by c.id) from clicks c where c.id between p.first_click_id and p.last_click_id)
          where p.owner = 'dead-ranges' and p.id % 2 = 0`.execute(db.storage.db);
          assert.ok((await records()).some((r) => r.click_ids !== null));
        }
        assert.ok((await recovery.recover(Date.now())).batches > 1);
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(2000),
          rows: 2000,
          total: humans(2000),
          pending: 0,
        });
        await dead.settle();
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(2000),
          rows: 2000,
          total: humans(2000),
          pending: 0,
        });
      });

      test('a writer whose lease ran out while it stalled: its window gives way, and every batch counts once', async () => {
        const links = await db.links(200);
        const stalled = storeOf('stalled');
        for (const batch of batchesOf(links, db.accountId, 2000, 200)) await writeDue(stalled, batch);
        assert.ok((await recovery.recover(Date.now())).batches > 0, 'taken for dead');
        for (const batch of batchesOf(links, db.accountId, 1000, 200, 2000)) await writeDue(stalled, batch);
        await stalled.settle();
        assert.equal(stalled.windowRows, 0);
        assert.deepEqual(await counts(db.storage.db, links), {
          clicks: humans(3000),
          rows: 3000,
          total: humans(3000),
          pending: 0,
        });
      });
    },
  );
}

describe('click recovery of the SQLite writer thread (a database file)', () => {
  let dir: string;
  let storage: Storage;
  let accountId: number;
  let made = 0;
  const path = () => join(dir, 'recovery.db');
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-recovery-'));
    storage = connect(`sqlite:${path()}`);
    await migrateToLatest(storage.db, 'sqlite');
    accountId = (
      await storage.db
        .insertInto('accounts')
        .values({ name: 'r', email: 'r@example.com', timezone: 'UTC', created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(async () => {
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const links = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      made++;
      const row = await storage.db
        .insertInto('links')
        .values(linkRow(accountId, `s${made}`))
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  };
  const writerOf = (owner: string) =>
    new ClickWriter(new SqliteClickWrites(openSqlite(path()), { owner }), {
      writeIntervalMs: 60_000,
      windowMs: 60_000,
      promptWindowRows: 0,
      maxBuffered: 1_000_000,
      onError: (e) => assert.fail(String(e)),
      onResumed: () => {},
      onWritten: () => {},
      onDropped: () => {},
    });
  const writeAll = async (writer: ClickWriter, batches: ReturnType<typeof batchesOf>) => {
    for (const b of batches) {
      writer.add(batchMessage(b));
      await writer.write();
    }
  };

  test('a thread killed with its window: rollups and links.clicks are rebuilt from the rows', async () => {
    const ids = await links(20);
    const writer = writerOf('dead-thread');
    await writeAll(writer, batchesOf(ids, accountId, 1500, 300));
    assert.deepEqual(await counts(storage.db, ids), { clicks: 0, rows: 1500, total: 0, pending: 5 });
    const recovery = new SqlClickRecovery(storage.db, 'sqlite');
    assert.deepEqual(await recovery.recover(Date.now()), { batches: 5, clicks: 1500 });
    assert.deepEqual(await counts(storage.db, ids), {
      clicks: humans(1500),
      rows: 1500,
      total: humans(1500),
      pending: 0,
    });
    const sums = await breakdown(storage.db, ids);
    assert.equal(sums['bot:'], 1500 - humans(1500));
    assert.equal(
      sums['hour:05'],
      Array.from({ length: 1500 }, (_, i) => i).filter((i) => i % 10 !== 0 && i % 24 === 5).length,
    );
    const values = await valueDay(storage.db, accountId);
    assert.ok(values.days >= humans(1500), JSON.stringify(values));
    assert.deepEqual(values, { days: values.days, all: values.days, hosts: values.days });
  });

  test("a thread's capped links are counted with their rows, and neither its window nor a recovery counts them again", async () => {
    const ids = await links(20);
    await storage.db
      .updateTable('links')
      .set({ expiration_clicks: 1_000_000 })
      .where('id', 'in', ids.slice(0, 10))
      .execute();
    const capped = ids.slice(0, 10);
    // Click i goes to ids[i % 20]: the capped ten get every other click, a tenth of them bots'.
    const cappedHumans = (count: number) =>
      Array.from({ length: count }, (_, i) => i).filter((i) => i % 10 !== 0 && i % 20 < 10).length;
    const dead = writerOf('dead-capped-thread');
    await writeAll(dead, batchesOf(ids, accountId, 600, 300));
    assert.equal((await counts(storage.db, capped)).clicks, cappedHumans(600), 'with the rows');
    assert.equal((await counts(storage.db, ids)).clicks, cappedHumans(600), 'the others wait with the window');
    await new SqlClickRecovery(storage.db, 'sqlite').recover(Date.now());
    assert.deepEqual(await counts(storage.db, ids), { clicks: humans(600), rows: 600, total: humans(600), pending: 0 });

    const more = await links(20);
    await storage.db
      .updateTable('links')
      .set({ expiration_clicks: 1_000_000 })
      .where('id', 'in', more.slice(0, 10))
      .execute();
    const alive = writerOf('live-capped-thread');
    await writeAll(alive, batchesOf(more, accountId, 600, 300));
    await alive.settle();
    assert.deepEqual(await counts(storage.db, more), {
      clicks: humans(600),
      rows: 600,
      total: humans(600),
      pending: 0,
    });
  });

  test('a thread whose lease ran out while it stalled writes only what is still its own', async () => {
    const ids = await links(20);
    const writer = writerOf('stalled-thread');
    await writeAll(writer, batchesOf(ids, accountId, 900, 300));
    const recovery = new SqlClickRecovery(storage.db, 'sqlite');
    assert.equal((await recovery.recover(Date.now())).batches, 3);
    await writeAll(writer, batchesOf(ids, accountId, 600, 300, 900));
    await writer.settle();
    assert.deepEqual(await counts(storage.db, ids), {
      clicks: humans(1500),
      rows: 1500,
      total: humans(1500),
      pending: 0,
    });
  });
});
