// Issue 14, finding 2: two instances writing clicks to one PostgreSQL at once (or one still
// flushing after SIGTERM beside its replacement) must never deadlock, and every click written
// must be counted exactly once in links.clicks, the rows and the rollups. Each store sums its
// rollups in a window (docs/design/clicks.md) written while the other writes batches: small windows
// with the batch that left them so, larger ones when WINDOW_MS has passed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { toBatch, writeDue } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { openClickDb, type ClickDb } from './click-db.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const RUN_MS = 5000;
// Enough links that PostgreSQL looks each one up by its key (as in production) rather than
// reading the whole table; the writers share a hot few.
const LINKS = 3000;
const HOT = 60;
const WINDOW_MS = 250;

const shuffle = <T>(list: T[]): T[] => {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
};
const any = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

const DAYS = ['2026-11-23', '2026-11-24'];
// Both writers draw from the same few visitors, new ones every 200 ms: they keep inserting the
// same new visitor marks at the same time, and meet on the same rollup rows.
const visitorNow = () => `${Math.floor(Date.now() / 200).toString(16)}-${Math.floor(Math.random() * 20)}`;

/** A batch over a shuffled subset (of varying size) of the hot links, its clicks in random order. */
function batchOf(accountId: number, hot: number[]): Click[] {
  const links = shuffle([...hot]).slice(0, 5 + Math.floor(Math.random() * (hot.length - 5)));
  // Mostly small batches: many transactions a second, so the two often update links at the same
  // moment. One in eight is large enough that the window outgrows what is written with the
  // batch at once, and is held until WINDOW_MS has passed.
  const size = Math.random() < 1 / 8 ? 800 : 40;
  return Array.from({ length: size }, (_, i) => {
    const isBot = i % 13 === 0;
    return {
      linkId: any(links),
      accountId,
      at: Date.now(),
      day: any(DAYS),
      hour: i % 3,
      visitor: isBot ? null : visitorNow(),
      country: any(['US', 'DE', null]),
      city: null,
      browser: any(['Chrome', 'Firefox']),
      platform: any(['Android', 'Windows']),
      device: 'mobile',
      language: any(['en', 'de']),
      referrerHost: any(['a.test', null]),
      isBot,
    };
  });
}

interface Written {
  batches: number;
  /** What PostgreSQL said of each deadlock (which relation, which statement). */
  deadlocks: string[];
  /** Per link: rows, human clicks. */
  rows: Map<number, number>;
  humans: Map<number, number>;
  /** Batches after which the store held rollups back, and window writes seen (the rows held fell). */
  held: number;
  windowsWritten: number;
}

const describeDeadlock = (error: unknown) => {
  const { message, where } = error as { message: string; where?: string };
  return `${message} ${where ?? ''}`;
};

/** A store whose window writes that fail (where no caller waits) are kept in `failures`. */
function storeOn(storage: Storage, failures: unknown[], windowMs = WINDOW_MS): InProcessClickWriter {
  return InProcessClickWriter.over(storage, { windowMs, onError: (error) => failures.push(error) });
}

async function writeFor(
  store: InProcessClickWriter,
  accountId: number,
  linkIds: number[],
  until: number,
): Promise<Written> {
  const written: Written = {
    batches: 0,
    deadlocks: [],
    rows: new Map(),
    humans: new Map(),
    held: 0,
    windowsWritten: 0,
  };
  let heldBefore = 0;
  while (Date.now() < until) {
    const clicks = batchOf(accountId, linkIds);
    try {
      await writeDue(store, toBatch(clicks.map((click) => ({ click, rotation: click.hour }))));
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01') throw error;
      written.deadlocks.push(describeDeadlock(error));
      continue;
    }
    written.batches++;
    if (store.windowRows > 0) written.held++;
    if (store.windowRows < heldBefore) written.windowsWritten++;
    heldBefore = store.windowRows;
    for (const c of clicks) {
      written.rows.set(c.linkId, (written.rows.get(c.linkId) ?? 0) + 1);
      if (!c.isBot) written.humans.set(c.linkId, (written.humans.get(c.linkId) ?? 0) + 1);
    }
  }
  return written;
}

describe(
  'PostgreSQL: two click writers at once',
  { skip: DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen' },
  () => {
    let db: ClickDb;
    let a: Storage;
    let b: Storage;
    let linkIds: number[];

    before(async () => {
      db = await openClickDb('postgres');
      a = db.storage;
      b = db.open();
      linkIds = shuffle(await db.links(LINKS)).slice(0, HOT);
      await sql`analyze links`.execute(a.db);
    });

    after(async () => {
      await db?.close();
    });

    test(
      `overlapping links in shuffled orders for ${RUN_MS / 1000} s: no deadlock, totals exact`,
      { timeout: RUN_MS + 30_000 },
      async (t) => {
        const until = Date.now() + RUN_MS;
        const failures: unknown[] = [];
        const stores = [storeOn(a, failures), storeOn(b, failures)];
        const runs = await Promise.all(stores.map((store) => writeFor(store, db.accountId, linkIds, until)));
        // What each window still holds, as a sink's flush() ends: written at once, both.
        await Promise.all(stores.map((store) => store.settle()));
        t.diagnostic(
          `batches written: ${runs.map((r) => r.batches).join(' and ')}; after ${runs.map((r) => r.held).join(' and ')} of them` +
            ` rollups were held back; windows written: ${runs.map((r) => r.windowsWritten).join(' and ')}`,
        );
        const deadlocks = [
          ...runs.flatMap((r) => r.deadlocks),
          ...failures.filter((e) => (e as { code?: string }).code === '40P01').map(describeDeadlock),
        ];
        assert.deepEqual(deadlocks, [], 'no transaction (batch or window) may fail with 40P01 deadlock detected');
        assert.deepEqual(failures, [], 'no window write failed');
        assert.ok(
          runs.every((r) => r.batches > 5),
          `both writers wrote (${runs.map((r) => r.batches).join(', ')} batches)`,
        );
        assert.ok(
          runs.every((r) => r.held > 0 && r.windowsWritten > 0),
          'both stores held rollups across batches and wrote their windows meanwhile',
        );

        const expect = (pick: (w: Written) => Map<number, number>, id: number) =>
          runs.reduce((n, r) => n + (pick(r).get(id) ?? 0), 0);
        const { rows } = await sql<{
          id: number;
          clicks: number;
          rows: number;
          total: number;
          bots: number;
          unique: number;
          marks: number;
        }>`
      select l.id, l.clicks + coalesce((select p.clicks from link_click_counts p where p.link_id = l.id), 0) as clicks,
        (select count(*) from clicks c where c.link_id = l.id)::int8 as rows,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'total')::int8 as total,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'bot')::int8 as bots,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'unique')::int8 as unique,
        (select count(*) from click_visitors v where v.link_id = l.id)::int8 as marks
      from links l where l.id = any(${linkIds}) order by l.id`.execute(a.db);
        assert.equal(rows.length, HOT);
        for (const r of rows) {
          const humans = expect((w) => w.humans, r.id);
          assert.equal(
            r.rows,
            expect((w) => w.rows, r.id),
            `link ${r.id}: click rows`,
          );
          assert.equal(r.clicks, humans, `link ${r.id}: links.clicks`);
          assert.equal(r.total, humans, `link ${r.id}: rollup total`);
          assert.equal(r.bots, r.rows - humans, `link ${r.id}: rollup bot`);
          assert.equal(r.unique, r.marks, `link ${r.id}: unique = visitor marks`);
        }
      },
    );

    test(
      'two windows holding the same new visitor marks and rollup rows, in different orders, written at once: no deadlock, exact',
      { timeout: 60_000 },
      async () => {
        // The window's links are only kept from deletion (a share lock both hold at once), so the two
        // transactions meet first on the marks and rollup rows themselves: each must take them in key order.
        const failures: unknown[] = [];
        // Written only when settled, both at once.
        const stores = [storeOn(a, failures, 600_000), storeOn(b, failures, 600_000)];
        const links = await db.links(200);
        const deadlocks: string[] = [];
        const ROUNDS = 20;
        for (let round = 0; round < ROUNDS; round++) {
          // 2 000 clicks, each a new visitor of its link today, the same in both stores but in shuffled orders.
          const clicks = Array.from({ length: 2000 }, (_, i): Click => ({
            linkId: links[i % links.length]!,
            accountId: db.accountId,
            at: Date.now(),
            day: DAYS[1]!,
            hour: 1,
            visitor: `r${round}-${i}`,
            country: 'DE',
            city: null,
            browser: 'Firefox',
            platform: 'Linux',
            device: 'desktop',
            language: 'de',
            referrerHost: null,
            isBot: false,
          }));
          for (const store of stores) await writeDue(store, toBatch(shuffle([...clicks]).map((click) => ({ click }))));
          assert.ok(
            stores.every((s) => s.windowRows > 0),
            "both windows hold the round's rollups",
          );
          const settled = await Promise.allSettled(stores.map((s) => s.settle()));
          for (const r of settled) {
            if (r.status === 'rejected') {
              if ((r.reason as { code?: string }).code !== '40P01') throw r.reason;
              deadlocks.push(describeDeadlock(r.reason));
              await stores[settled.indexOf(r)]!.settle(); // what failed was put back: written now, once
            }
          }
        }
        assert.deepEqual(deadlocks, [], 'no window write may fail with 40P01 deadlock detected');
        assert.deepEqual(failures, []);
        const { rows } = await sql<{ total: number; unique: number; marks: number; clicks: number }>`
      select (select coalesce(sum(count), 0) from click_rollups where dimension = 'total' and link_id = any(${links}))::int8 as total,
             (select coalesce(sum(count), 0) from click_rollups where dimension = 'unique' and link_id = any(${links}))::int8 as unique,
             (select count(*) from click_visitors where link_id = any(${links}))::int8 as marks,
             ((select coalesce(sum(clicks), 0) from links where id = any(${links})) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id = any(${links})))::int8 as clicks`.execute(
          a.db,
        );
        // Each store wrote every click once: the visitors are the same, so each is unique once.
        assert.deepEqual(rows[0], {
          total: 2 * 2000 * ROUNDS,
          unique: 2000 * ROUNDS,
          marks: 2000 * ROUNDS,
          clicks: 2 * 2000 * ROUNDS,
        });
      },
    );
  },
);
