// The click writer's array parameters go to PostgreSQL in binary (pg-binary-arrays.ts): the server
// must read back exactly what was written, and write the same bytes itself (array_send).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { POSTGRES_SKIP } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';
import { int4Array, int8Array, textArray } from '../../../src/adapters/storage/stores/pg-binary-arrays.ts';

test(
  'PostgreSQL reads the binary arrays as written, and array_send writes the same bytes',
  { skip: POSTGRES_SKIP ?? false },
  async () => {
    await withEmptyStorage('postgres', async ({ db }) => {
      const ints = [0, -1, 2 ** 31 - 1, -(2 ** 31), null];
      const bigs = [0, 1795554875611, -1795554875611, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, null];
      const texts = ['a', null, 'NULL', '', 'x,y{}', 'say "hi"', 'C:\\d', 'é 🙂', "it's"];
      const { rows } = await sql<{
        i: number[];
        b: string[];
        t: (string | null)[];
        si: Buffer;
        sb: Buffer;
        st: Buffer;
        e: number;
      }>`
      select ${int4Array(ints)}::int4[] as i, ${int8Array(bigs)}::int8[] as b, ${textArray(texts)}::text[] as t,
        array_send(${int4Array(ints)}::int4[]) as si, array_send(${int8Array(bigs)}::int8[]) as sb,
        array_send(${textArray(texts)}::text[]) as st, cardinality(${int4Array([])}::int4[]) as e`.execute(db);
      const row = rows[0]!;
      assert.deepEqual(row.i, ints);
      assert.deepEqual(
        row.b.map((v) => (v === null ? null : Number(v))),
        bigs,
      );
      assert.deepEqual(row.t, texts);
      assert.deepEqual(row.si, int4Array(ints));
      assert.deepEqual(row.sb, int8Array(bigs));
      assert.deepEqual(row.st, textArray(texts));
      assert.equal(row.e, 0);
    });
  },
);

test(
  'PostgreSQL refuses an array whose element type is not the one the statement casts to',
  { skip: POSTGRES_SKIP ?? false },
  async () => {
    await withEmptyStorage('postgres', async ({ db }) => {
      await assert.rejects(
        sql`select ${int8Array([1])}::int4[]`.execute(db),
        /array element type 20 \(bigint\) instead of expected 23/,
      );
    });
  },
);
