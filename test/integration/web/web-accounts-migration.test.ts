import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import * as initial from '../../../src/adapters/storage/migrations/0001-initial.ts';
import * as webAccounts from '../../../src/adapters/storage/migrations/0006-web-accounts.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

for (const engine of ENGINES) {
  test(
    `migration 0006 [${engine.name}]: accounts kept, the first one the operator, sessions added (and removed again on SQLite)`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never;
        await initial.up(db, engine.name);
        for (const email of ['first@example.com', 'second@example.com']) {
          await sql`insert into accounts (name, email, timezone, created_at) values ('x', ${email}, 'UTC', 0)`.execute(
            db,
          );
        }
        await webAccounts.up(db, engine.name);
        const rows = (
          await sql<{ email: string; is_admin: number; password_hash: string | null; suspended_at: number | null }>`
        select email, is_admin, password_hash, suspended_at from accounts order by id`.execute(db)
        ).rows;
        assert.deepEqual(
          rows.map((r) => [r.email, Number(r.is_admin), r.password_hash, r.suspended_at]),
          [
            ['first@example.com', 1, null, null],
            ['second@example.com', 0, null, null],
          ],
        );
        await sql`insert into sessions (account_id, token_hash, created_at, last_seen_at, expires_at) values (1, 'h', 0, 0, 1)`.execute(
          db,
        );
        await assert.rejects(
          sql`insert into sessions (account_id, token_hash, created_at, last_seen_at, expires_at) values (2, 'h', 0, 0, 1)`.execute(
            db,
          ),
          'token digests are unique',
        );
        // Down only on SQLite: dropping columns on the shared PostgreSQL database while another
        // suite's migrator introspects every schema (Kysely's pg_get_serial_sequence over all
        // columns) fails that suite with "column … does not exist". The statements are the same.
        if (engine.name === 'sqlite') {
          await webAccounts.down(db);
          assert.equal((await sql`select id from accounts`.execute(db)).rows.length, 2);
          await assert.rejects(sql`select id from sessions`.execute(db));
        }
      });
    },
  );
}
