// Issue 14, finding 2: two instances writing clicks to one PostgreSQL at once (or one still
// flushing after SIGTERM beside its replacement) must never deadlock, and every click written
// must be counted exactly once in links.clicks, the rows and the rollups.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Storage } from '../../../src/adapters/storage/connect.ts';
import { SqlClickStore } from '../../../src/adapters/storage/stores/click-store.ts';
import { toBatch } from '../../../src/core/clicks/batch.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { openClickDb, type ClickDb } from './click-db.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const RUN_MS = 5000;
// Enough links that PostgreSQL looks each one up by its key (as in production) rather than
// reading the whole table; the writers share a hot few.
const LINKS = 3000;
const HOT = 60;

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
  // Small batches: many transactions a second, so the two often update links at the same moment.
  return Array.from({ length: 40 }, (_, i) => {
    const isBot = i % 13 === 0;
    return {
      linkId: any(links), accountId, at: Date.now(), day: any(DAYS), hour: i % 3,
      visitor: isBot ? null : visitorNow(), country: any(['US', 'DE', null]), city: null, browser: any(['Chrome', 'Firefox']),
      platform: any(['Android', 'Windows']), device: 'mobile', language: any(['en', 'de']), referrerHost: any(['a.test', null]), isBot,
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
}

async function writeFor(store: SqlClickStore, accountId: number, linkIds: number[], until: number): Promise<Written> {
  const written: Written = { batches: 0, deadlocks: [], rows: new Map(), humans: new Map() };
  while (Date.now() < until) {
    const clicks = batchOf(accountId, linkIds);
    try {
      await store.writeBatch(toBatch(clicks.map((click) => ({ click, rotation: click.hour }))));
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01') throw error;
      const { message, where } = error as { message: string; where?: string };
      written.deadlocks.push(`${message} ${where ?? ''}`);
      continue;
    }
    written.batches++;
    for (const c of clicks) {
      written.rows.set(c.linkId, (written.rows.get(c.linkId) ?? 0) + 1);
      if (!c.isBot) written.humans.set(c.linkId, (written.humans.get(c.linkId) ?? 0) + 1);
    }
  }
  return written;
}

describe('PostgreSQL: two click writers at once', { skip: DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen' }, () => {
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

  test(`overlapping links in shuffled orders for ${RUN_MS / 1000} s: no deadlock, totals exact`, { timeout: RUN_MS + 30_000 }, async (t) => {
    const until = Date.now() + RUN_MS;
    const runs = await Promise.all([
      writeFor(new SqlClickStore(a.db, 'postgres'), db.accountId, linkIds, until),
      writeFor(new SqlClickStore(b.db, 'postgres'), db.accountId, linkIds, until),
    ]);
    t.diagnostic(`batches written: ${runs.map((r) => r.batches).join(' and ')}`);
    assert.deepEqual(runs.flatMap((r) => r.deadlocks), [], 'no transaction may fail with 40P01 deadlock detected');
    assert.ok(runs.every((r) => r.batches > 5), `both writers wrote (${runs.map((r) => r.batches).join(', ')} batches)`);

    const expect = (pick: (w: Written) => Map<number, number>, id: number) => runs.reduce((n, r) => n + (pick(r).get(id) ?? 0), 0);
    const { rows } = await sql<{ id: number; clicks: number; rows: number; total: number; bots: number; unique: number; marks: number }>`
      select l.id, l.clicks,
        (select count(*) from clicks c where c.link_id = l.id)::int8 as rows,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'total')::int8 as total,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'bot')::int8 as bots,
        (select coalesce(sum(count), 0) from click_rollups r where r.link_id = l.id and r.dimension = 'unique')::int8 as unique,
        (select count(*) from click_visitors v where v.link_id = l.id)::int8 as marks
      from links l where l.id = any(${linkIds}) order by l.id`.execute(a.db);
    assert.equal(rows.length, HOT);
    for (const r of rows) {
      const humans = expect((w) => w.humans, r.id);
      assert.equal(r.rows, expect((w) => w.rows, r.id), `link ${r.id}: click rows`);
      assert.equal(r.clicks, humans, `link ${r.id}: links.clicks`);
      assert.equal(r.total, humans, `link ${r.id}: rollup total`);
      assert.equal(r.bots, r.rows - humans, `link ${r.id}: rollup bot`);
      assert.equal(r.unique, r.marks, `link ${r.id}: unique = visitor marks`);
    }
  });
});
