// Migration 0026 (issue 33): a database as release 0025 left it, with an account, its key, a
// signed-in session and links, upgrades with every id, key and session working: the account is
// the owner of its personal workspace, the key acts there with every scope. Both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import pg from 'pg';
import { connect, type Storage } from '../../../src/adapters/storage/connect.ts';
import { MIGRATIONS } from '../../../src/adapters/storage/migrations/index.ts';
import { digest } from '../../../src/core/shared/secrets.ts';
import { ENGINES, startHarness } from '../../support/harness.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';

const KEY = 'lpx_' + 'k'.repeat(43);
const SESSION = 's'.repeat(43);

/** Applies 0001..0025 through Kysely's migrator, so the server's own run starts at 0026. */
async function migrateTo0025(storage: Storage, schema: string | undefined): Promise<void> {
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS)
      .filter(([name]) => name < '0026')
      .map(([name, m]) => [
        name,
        {
          up: (d: Kysely<unknown>) => m.up(d, storage.engine),
          down: (d: Kysely<unknown>) => m.down(d, storage.engine),
        },
      ]),
  );
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migrating to 0025 failed', { cause: error });
}

async function seed(db: Kysely<unknown>): Promise<{ accountId: number; linkIds: number[] }> {
  const now = Date.now();
  const account = await sql<{
    id: number;
  }>`insert into accounts (name, email, timezone, created_at, is_admin) values ('Ada', 'ada@example.com', 'Europe/London', ${now}, 1) returning id`.execute(
    db,
  );
  const accountId = account.rows[0]!.id;
  await sql`insert into api_keys (account_id, name, prefix, key_hash, created_at) values (${accountId}, 'default', ${KEY.slice(0, 12)}, ${digest(KEY)}, ${now})`.execute(
    db,
  );
  await sql`insert into sessions (account_id, token_hash, created_at, last_seen_at, expires_at) values (${accountId}, ${digest(SESSION)}, ${now}, ${now}, ${now + 86_400_000})`.execute(
    db,
  );
  const linkIds: number[] = [];
  for (const alias of ['one', 'two']) {
    const link = await sql<{
      id: number;
    }>`insert into links (account_id, alias, alias_key, url, created_at, updated_at) values (${accountId}, ${alias}, ${alias}, ${'https://example.com/' + alias}, ${now}, ${now}) returning id`.execute(
      db,
    );
    linkIds.push(link.rows[0]!.id);
  }
  return { accountId, linkIds };
}

for (const engine of ENGINES) {
  test(
    `migration 0026 [${engine.name}]: an account of release 0025 is its personal workspace's owner, its key, session and links unchanged`,
    { skip: engine.skip ?? false },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'linkpix-upgrade-'));
      const schema =
        engine.name === 'postgres' ? `lp_upgrade_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
      const url = engine.name === 'postgres' ? testDatabaseUrl() : `sqlite:${join(dir, 'db.sqlite')}`;
      const admin = schema ? new pg.Client({ connectionString: url }) : null;
      if (admin) {
        await admin.connect();
        await admin.query(`create schema ${schema}`);
      }
      try {
        const storage = connect(url, schema ? { schema } : {});
        let seeded: Awaited<ReturnType<typeof seed>>;
        try {
          await migrateTo0025(storage, schema);
          seeded = await seed(storage.db as never);
        } finally {
          await storage.close();
        }
        const h = await startHarness(engine.name, schema ? { pgSchema: schema } : { env: { DATABASE_URL: url } });
        try {
          const account = await h.request('GET', '/api/v1/account', { key: KEY });
          assert.equal(account.status, 200, account.text);
          assert.equal(account.body.data.id, seeded.accountId);
          for (const id of seeded.linkIds)
            assert.equal((await h.request('GET', `/api/v1/links/${id}`, { key: KEY })).status, 200);
          const made = await h.request('POST', '/api/v1/links', {
            key: KEY,
            json: { url: 'https://example.com/after' },
          });
          assert.equal(made.status, 201, 'the old key writes: owner, every scope');
          const workspaces = await h.request('GET', '/api/v1/workspaces', { key: KEY });
          assert.deepEqual(
            workspaces.body.data.map((w: { id: number; role: string; personal: boolean; timezone: string }) => [
              w.id,
              w.role,
              w.personal,
              w.timezone,
            ]),
            [[seeded.accountId, 'owner', true, 'Europe/London']],
          );
          const keys = await h.request('GET', `/api/v1/workspaces/${seeded.accountId}/api-keys`, { key: KEY });
          assert.deepEqual(
            keys.body.data.map((k: { scopes: unknown; user: { id: number }; expires_at: unknown }) => [
              k.scopes,
              k.user.id,
              k.expires_at,
            ]),
            [[null, seeded.accountId, null]],
          );
          const page = await fetch(`${h.baseUrl}/account`, {
            headers: { cookie: `lpx_session=${SESSION}` },
            redirect: 'manual',
          });
          assert.equal(page.status, 200, 'the session still signs its browser in');
          const users = await sql<{ id: number }>`select id from users`.execute(h.server.container.storage.db);
          assert.deepEqual(
            users.rows.map((r) => Number(r.id)),
            [seeded.accountId],
          );
        } finally {
          await h.close();
        }
      } finally {
        if (admin) {
          await admin.query(`drop schema ${schema} cascade`);
          await admin.end();
        }
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
}
