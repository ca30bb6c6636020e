// Migration 0020: emails stored before lookups normalised to NFC are rewritten in NFC, so their
// owners still sign in; one whose NFC form another account holds, and one with a character now
// refused, are left as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrationsUpTo } from '../../support/migrations.ts';
import * as accountEmailsNfc from '../../../src/adapters/storage/migrations/0020-account-emails-nfc.ts';
import { ENGINES } from '../../support/harness.ts';
import { withEmptyStorage } from '../../support/empty-storage.ts';

const BEFORE_0020 = migrationsUpTo('0019');

for (const engine of ENGINES) {
  test(
    `migration 0020 [${engine.name}]: decomposed emails become NFC unless another account holds that form`,
    { skip: engine.skip ?? false },
    async () => {
      await withEmptyStorage(engine.name, async (storage) => {
        const db = storage.db as never as Kysely<unknown>;
        for (const m of BEFORE_0020) await m.up(db, engine.name);
        const stored = [
          'plain@example.com',
          'jose\u0301@example.com', // decomposed: rewritten
          'rene\u0301@example.com', // decomposed, but the composed form is taken: kept
          'ren\u00e9@example.com',
          'zero\u200Bwidth@example.com', // now refused at sign-up: kept, and flagged in /admin
        ];
        for (const email of stored)
          await sql`insert into accounts (name, email, timezone, created_at) values ('x', ${email}, 'UTC', 0)`.execute(
            db,
          );
        await accountEmailsNfc.up(db);
        const rows = (await sql<{ email: string }>`select email from accounts order by id`.execute(db)).rows.map(
          (r) => r.email,
        );
        assert.deepEqual(rows, [
          'plain@example.com',
          'jos\u00e9@example.com',
          'rene\u0301@example.com',
          'ren\u00e9@example.com',
          'zero\u200Bwidth@example.com',
        ]);
        await accountEmailsNfc.up(db);
        assert.deepEqual(
          (await sql<{ email: string }>`select email from accounts order by id`.execute(db)).rows.map((r) => r.email),
          rows,
          'a second run changes nothing',
        );
        // Down has nothing to undo: the NFC form is the same address.
        await accountEmailsNfc.down();
      });
    },
  );
}
