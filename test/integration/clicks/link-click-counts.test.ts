// PostgreSQL's pending link click counts (docs/design/clicks.md): a window adds its counts and rotation
// positions to link_click_counts, not to the links' rows; every read shows the two added; a settle moves them into links.clicks without
// waiting for anyone; a change of click cap settles the link first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { LinkStatus, type LinkFilter } from '../../../src/core/links/link.ts';
import { SqlAdminStore } from '../../../src/adapters/storage/stores/admin-store.ts';
import { SqlClickClaimStore } from '../../../src/adapters/storage/stores/click-claim-store.ts';
import { LinkClickCounts } from '../../../src/adapters/clicks/postgres/link-click-counts.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { pgClickStatements } from '../../../src/adapters/clicks/postgres/pg-click-statements.ts';
import * as linkClickCountsMigration from '../../../src/adapters/storage/migrations/0040-link-click-counts.ts';
import { POSTGRES_SKIP } from '../../support/harness.ts';
import { openClickDb, type ClickDb } from './click-db.ts';

const BY_CLICKS: LinkFilter = { by: 'title', status: LinkStatus.All, sort: 'max' };

describe('PostgreSQL: link click counts settled later', { skip: POSTGRES_SKIP ?? false }, () => {
  let db: ClickDb;
  let links: SqlLinkStore;
  let counts: LinkClickCounts;

  before(async () => {
    db = await openClickDb('postgres');
    links = new SqlLinkStore(db.storage.db, 'postgres');
    counts = new LinkClickCounts(db.storage.db);
  });
  after(async () => {
    await db?.close();
  });

  /** What a window writes for these links: `clicks` each, and a rotation position where given. */
  const countWindow = (updates: Array<{ id: number; clicks: number; rotation?: number }>) =>
    db.storage.db.transaction().execute((trx) =>
      pgClickStatements.countWindow(
        trx,
        updates.map((u) => ({ id: u.id, clicks: u.clicks, rotation: u.rotation ?? null })),
      ),
    );
  const stored = async (ids: readonly number[]) => {
    const { rows } = await sql<{ id: number; clicks: number; pending: number | null; last_rotation: number | null }>`
      select l.id, l.clicks, p.clicks as pending, l.last_rotation from links l left join link_click_counts p on p.link_id = l.id
      where l.id in (${sql.join(ids)}) order by l.id`.execute(db.storage.db);
    return rows.map((r) => ({
      id: r.id,
      clicks: Number(r.clicks),
      pending: r.pending === null ? null : Number(r.pending),
      rotation: r.last_rotation,
    }));
  };
  const shown = async (ids: readonly number[]) => (await links.findByIds(db.accountId, ids)).map((l) => l.clicks);

  test('a window adds to the pending counts and positions; every read shows them; a settle moves them into the links', async () => {
    const [a, b, c] = await db.links(3);
    await countWindow([
      { id: a!, clicks: 5 },
      { id: b!, clicks: 2, rotation: 7 },
    ]);
    await countWindow([
      { id: a!, clicks: 1 },
      { id: c!, clicks: 0, rotation: 3 },
    ]);
    assert.deepEqual(await stored([a!, b!, c!]), [
      { id: a, clicks: 0, pending: 6, rotation: 0 },
      { id: b, clicks: 0, pending: 2, rotation: 0 },
      { id: c, clicks: 0, pending: 0, rotation: 0 },
    ]);
    assert.deepEqual(
      (await links.findByIds(db.accountId, [a!, b!, c!])).map((l) => l.lastRotation),
      [0, 7, 3],
      'the rotation positions wait with the counts',
    );
    assert.deepEqual(await shown([a!, b!, c!]), [6, 2, 0]);
    assert.equal((await links.findById(db.accountId, a!))?.clicks, 6);
    assert.equal((await links.findAnyById(b!))?.clicks, 2);
    const listed = await links.list(db.accountId, BY_CLICKS, { page: 1, perPage: 50 }, Date.now());
    assert.deepEqual(
      listed.items.filter((l) => [a, b, c].includes(l.id)).map((l) => l.clicks),
      [0, 2, 6],
      'every figure is exact; the order by clicks waits for the settle (newest first among equal settled counts)',
    );
    assert.ok(
      (await new SqlAdminStore(db.storage.db).totals('2000-01-01')).clicks >= 8,
      'the operator’s sum counts the pending clicks',
    );

    assert.ok((await counts.settle()) >= 2);
    assert.deepEqual(await stored([a!, b!, c!]), [
      { id: a, clicks: 6, pending: null, rotation: 0 },
      { id: b, clicks: 2, pending: null, rotation: 7 },
      { id: c, clicks: 0, pending: null, rotation: 3 },
    ]);
    assert.deepEqual(
      (await links.findByIds(db.accountId, [a!, b!, c!])).map((l) => l.lastRotation),
      [0, 7, 3],
    );
    assert.deepEqual(await shown([a!, b!, c!]), [6, 2, 0]);
    const settled = await links.list(db.accountId, BY_CLICKS, { page: 1, perPage: 50 }, Date.now());
    assert.deepEqual(
      settled.items.filter((l) => [a, b, c].includes(l.id)).map((l) => l.clicks),
      [6, 2, 0],
    );
  });

  test('a settle passes over a count a window holds, and settles it the next time', async () => {
    const [held, free] = await db.links(2);
    await countWindow([
      { id: held!, clicks: 4 },
      { id: free!, clicks: 9 },
    ]);
    const other = db.open();
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = other.db.transaction().execute(async (trx) => {
        await sql`select 1 from link_click_counts where link_id = ${held} for update`.execute(trx);
        locked();
        await released;
      });
      await isLocked;
      await counts.settle();
      assert.deepEqual(await stored([held!, free!]), [
        { id: held, clicks: 0, pending: 4, rotation: 0 },
        { id: free, clicks: 9, pending: null, rotation: 0 },
      ]);
      release();
      await holder;
      await counts.settle();
      assert.deepEqual(await stored([held!, free!]), [
        { id: held, clicks: 4, pending: null, rotation: 0 },
        { id: free, clicks: 9, pending: null, rotation: 0 },
      ]);
    } finally {
      await other.close();
    }
  });

  test('a change of click cap settles the link’s pending clicks first, one link or many', async () => {
    const [one, two, three, untouched] = await db.links(4);
    await countWindow([
      { id: one!, clicks: 3 },
      { id: two!, clicks: 4 },
      { id: three!, clicks: 5 },
      { id: untouched!, clicks: 6 },
    ]);
    await links.update(db.accountId, one!, { expirationClicks: 10 }, undefined, Date.now());
    await links.updateMany(db.accountId, [two!, three!], { expirationClicks: 4 }, Date.now());
    await links.update(db.accountId, untouched!, { title: 'renamed' }, undefined, Date.now());
    assert.deepEqual(await stored([one!, two!, three!, untouched!]), [
      { id: one, clicks: 3, pending: null, rotation: 0 },
      { id: two, clicks: 4, pending: null, rotation: 0 },
      { id: three, clicks: 5, pending: null, rotation: 0 },
      { id: untouched, clicks: 0, pending: 6, rotation: 0 },
    ]);
    const expired = await links.list(
      db.accountId,
      { ...BY_CLICKS, status: LinkStatus.Expired },
      { page: 1, perPage: 50 },
      Date.now(),
    );
    assert.deepEqual(
      expired.items.map((l) => l.id).sort(),
      [two, three].sort(),
      'the capped links’ status reads their whole count',
    );
  });

  test('the database’s count of a capped link’s claims opens from its whole count; a deleted link’s pending clicks go with it', async () => {
    const [capped, gone] = await db.links(2);
    await countWindow([
      { id: capped!, clicks: 7 },
      { id: gone!, clicks: 2 },
    ]);
    const claims = new SqlClickClaimStore(db.storage.db, 'postgres');
    assert.equal(await claims.open(capped!, 0, { lostAt: Date.now() }), 'open');
    assert.equal(await claims.claimed(capped!), 7);
    assert.equal(await links.delete(db.accountId, gone!), true);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from link_click_counts where link_id = ${gone}`.execute(db.storage.db);
    assert.equal(rows[0]?.n, 0);
  });

  test('a round that runs out of time leaves the rest to the next, which goes on from there', async () => {
    await counts.settle(); // nothing left from the tests before
    const [first, second, third] = await db.links(3);
    await countWindow([
      { id: first!, clicks: 1 },
      { id: second!, clicks: 2 },
      { id: third!, clicks: 3 },
    ]);
    const oneAtATime = new LinkClickCounts(db.storage.db, { linksPerSettle: 1 });
    assert.equal(await oneAtATime.settle(0), 1);
    await countWindow([{ id: first!, clicks: 10 }]);
    assert.equal(await oneAtATime.settle(0), 1);
    assert.deepEqual(
      (await stored([first!, second!, third!])).map((r) => [r.clicks, r.pending]),
      [
        [1, 10],
        [2, null],
        [0, 3],
      ],
      'the second round took the link after the first round’s, not the first link again',
    );
    await oneAtATime.settle();
    await oneAtATime.settle();
    assert.deepEqual(await shown([first!, second!, third!]), [11, 2, 3]);
    assert.deepEqual(
      (await stored([first!, second!, third!])).map((r) => r.pending),
      [null, null, null],
    );
  });

  test('a cap change for another account’s link settles nothing of it', async () => {
    const [theirs] = await db.links(1);
    await countWindow([{ id: theirs!, clicks: 5 }]);
    const { id: other } = await db.storage.db
      .insertInto('accounts')
      .values({ name: 'other', email: `other-${theirs}@example.com`, timezone: 'UTC', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(await links.update(other, theirs!, { expirationClicks: 1 }, undefined, Date.now()), null);
    assert.deepEqual(await links.updateMany(other, [theirs!], { expirationClicks: 1 }, Date.now()), []);
    assert.deepEqual(await stored([theirs!]), [{ id: theirs, clicks: 0, pending: 5, rotation: 0 }]);
  });

  test("a window's update of every pending count finds room on the row's page: no index entry written (migration 0041)", async () => {
    await counts.settle();
    const ids = await db.links(2000);
    await countWindow(ids.map((id) => ({ id, clicks: 1 })));
    const hot = await db.storage.db.transaction().execute(async (trx) => {
      await pgClickStatements.countWindow(
        trx,
        ids.map((id) => ({ id, clicks: 2, rotation: null })),
      );
      const { rows } = await sql<{ updated: string; hot: string }>`
        select pg_stat_get_xact_tuples_updated('link_click_counts'::regclass) as updated,
          pg_stat_get_xact_tuples_hot_updated('link_click_counts'::regclass) as hot`.execute(trx);
      return { updated: Number(rows[0]!.updated), hot: Number(rows[0]!.hot) };
    });
    assert.ok(hot.updated >= 2000, `${hot.updated} updated`);
    assert.equal(hot.hot, hot.updated, 'every update HOT');
  });

  // Last: it drops the table and makes it again.
  test('migration 0040 goes down with the pending counts and positions settled into the links, and up again', async () => {
    const [a, b] = await db.links(2);
    await countWindow([
      { id: a!, clicks: 3, rotation: 2 },
      { id: b!, clicks: 1 },
    ]);
    const schema = db.storage.db as never as Parameters<typeof linkClickCountsMigration.down>[0];
    await linkClickCountsMigration.down(schema);
    const { rows } = await sql<{ id: number; clicks: number; last_rotation: number }>`
      select id, clicks, last_rotation from links where id in (${a}, ${b}) order by id`.execute(db.storage.db);
    assert.deepEqual(
      rows.map((r) => [r.id, Number(r.clicks), Number(r.last_rotation)]),
      [
        [a, 3, 2],
        [b, 1, 0],
      ],
    );
    await linkClickCountsMigration.up(schema, 'postgres');
    assert.deepEqual(await shown([a!, b!]), [3, 1]);
  });
});
