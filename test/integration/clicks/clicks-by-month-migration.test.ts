// Migration 0035 (docs/design/clicks.md): PostgreSQL's clicks partitioned by month. A database
// as 0034 left it upgrades with every row kept; the writer makes the months it meets; retention
// drops whole months and deletes within the boundary one; a deleted link's rows go at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS } from '../../../src/adapters/storage/migrations/index.ts';
import * as byMonth from '../../../src/adapters/storage/migrations/0035-clicks-by-month.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { SqlClickRetention } from '../../../src/adapters/storage/stores/click-retention.ts';
import { toBatch, writeDue } from '../../support/click-hand-over.ts';
import type { Click } from '../../../src/core/clicks/click.ts';
import { aClick } from '../../support/clicks.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { POSTGRES_SKIP } from '../../support/harness.ts';

const at = (iso: string) => Date.parse(iso);

async function partitions(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('clicks') order by 1`.execute(
    db,
  );
  return rows.map((r) => r.name);
}

const rowsOf = async (db: Kysely<unknown>) =>
  (
    await sql<{
      id: number;
      link_id: number;
      at: number;
      country: string | null;
    }>`select id, link_id, at, country from clicks order by id`.execute(db)
  ).rows.map((r) => ({
    ...r,
    id: Number(r.id),
    at: Number(r.at),
  }));

function click(linkId: number, accountId: number, when: number): Click {
  return aClick({
    linkId,
    accountId,
    at: when,
    day: new Date(when).toISOString().slice(0, 10),
    hour: new Date(when).getUTCHours(),
    country: 'DE',
  });
}

test(
  'migration 0035 on PostgreSQL: rows kept in their months, ids go on, a deleted link takes its rows; the writer and retention',
  { skip: POSTGRES_SKIP ?? false },
  async () => {
    await withEmptyStorage('postgres', async (storage) => {
      const db = storage.db as unknown as Kysely<unknown>;
      for (const [name, m] of Object.entries(MIGRATIONS)) if (name < '0035') await m.up(db, 'postgres');
      await sql`insert into accounts (name, email, timezone, created_at) values ('a', 'a@example.com', 'UTC', 0)`.execute(
        db,
      );
      for (const alias of ['one', 'two']) {
        await sql`insert into links (account_id, alias, alias_key, url, created_at, updated_at) values (1, ${alias}, ${alias}, 'https://example.com/', 0, 0)`.execute(
          db,
        );
      }
      const before = [
        [1, at('2026-01-10T12:00:00Z')],
        [2, at('2026-01-31T23:59:59.999Z')],
        [1, at('2026-02-01T00:00:00Z')],
      ] as const;
      for (const [link, when] of before)
        await sql`insert into clicks (link_id, account_id, at, country) values (${link}, 1, ${when}, 'US')`.execute(db);

      await byMonth.up(db, 'postgres');
      // And the later ones, whose tables today's writer uses (the recent rollups, 0038).
      for (const [name, m] of Object.entries(MIGRATIONS)) if (name >= '0036') await m.up(db, 'postgres');
      const now = new Date();
      const month = (d: Date) => `clicks_m${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
      const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      assert.deepEqual(
        await partitions(db),
        [...new Set(['clicks_default', 'clicks_m202601', 'clicks_m202602', month(now), month(ahead)])].sort(),
      );
      assert.deepEqual(await rowsOf(db), [
        { id: 1, link_id: 1, at: before[0][1], country: 'US' },
        { id: 2, link_id: 2, at: before[1][1], country: 'US' },
        { id: 3, link_id: 1, at: before[2][1], country: 'US' },
      ]);
      assert.deepEqual(
        (await sql<{ n: number }>`select count(*) as n from clicks_m202601`.execute(db)).rows[0]!.n,
        2,
        'January holds its last millisecond',
      );

      // The writer: a month with no partition yet is made (and the month after the batch's last), and the
      // rows the default partition held for it move in.
      await sql`insert into clicks (link_id, account_id, at) values (2, 1, ${at('2024-05-05T00:00:00Z')})`.execute(db);
      assert.equal(
        (await sql<{ n: number }>`select count(*) as n from clicks_default`.execute(db)).rows[0]!.n,
        1,
        'a month not made yet: the default',
      );
      const store = InProcessClickWriter.over(storage, {
        windowMs: 0,
        onError: (e) => assert.fail(String(e)),
        owner: 'test',
      });
      await writeDue(
        store,
        toBatch([
          { click: click(1, 1, at('2024-05-20T08:00:00Z')) },
          { click: click(2, 1, at('2026-02-03T08:00:00Z')) },
        ]),
      );
      await store.settle();
      const made = await partitions(db);
      assert.ok(made.includes('clicks_m202405') && made.includes('clicks_m202603'), made.join());
      assert.equal((await sql<{ n: number }>`select count(*) as n from clicks_m202405`.execute(db)).rows[0]!.n, 2);
      assert.equal((await sql<{ n: number }>`select count(*) as n from clicks_default`.execute(db)).rows[0]!.n, 0);
      assert.equal(Math.max(...(await rowsOf(db)).map((r) => r.id)), 6, 'ids go on from where they were');

      // Retention: May 2024 and January 2026, wholly past the limit are dropped; February is cut at the limit.
      const retention = new SqlClickRetention(storage.db, 'postgres');
      const pruned = await retention.prune(at('2026-02-02T00:00:00Z'), '2000-01-01');
      assert.deepEqual(pruned, { clicks: 5, visitors: 0 });
      const left = await partitions(db);
      assert.ok(
        !left.includes('clicks_m202405') && !left.includes('clicks_m202601') && left.includes('clicks_m202602'),
        left.join(),
      );
      assert.deepEqual(
        (await rowsOf(db)).map((r) => r.at),
        [at('2026-02-03T08:00:00Z')],
      );

      // A deleted link's rows go with it, as the cascade took them.
      await sql`insert into clicks (link_id, account_id, at) values (1, 1, ${at('2026-02-05T00:00:00Z')})`.execute(db);
      await sql`delete from links where id = 1`.execute(db);
      assert.deepEqual(
        (await rowsOf(db)).map((r) => r.link_id),
        [2],
      );

      await byMonth.down(db, 'postgres');
      assert.deepEqual(await partitions(db), []);
      assert.deepEqual(
        (await rowsOf(db)).map((r) => r.link_id),
        [2],
      );
      await sql`insert into clicks (link_id, account_id, at) values (2, 1, 1)`.execute(db);
      await assert.rejects(
        sql`insert into clicks (link_id, account_id, at) values (99, 1, 1)`.execute(db),
        'the key to links is back',
      );
      await byMonth.up(db, 'postgres');
      assert.equal((await rowsOf(db)).length, 2);
    });
  },
);
