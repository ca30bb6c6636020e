/**
 * `kill -9` mid-import (docs/design/imports.md, docs/api.md §15), on both engines: each batch is
 * one transaction, so what the killed instance wrote is whole batches from the start of the file
 * (every link with its audit entry) and nothing of the batch it was writing; its leases hold until
 * they run out; the same file imported again skips the links already written and creates the rest.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ENGINES } from '../support/harness.ts';
import { clickDatabase, type ClickDatabase } from '../support/click-database.ts';
import { cliAccountKey, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { multipartBody } from '../support/multipart.ts';
import { eventually } from '../support/eventually.ts';
import { IMPORT_BATCH } from '../../src/core/links/import/link-importer.ts';

// Enough rows that the import is still writing when the first batches are seen, whatever the
// machine: 200 batches, the kill comes a few in (at 100 links, polled every 10 ms).
const ROWS = 5_000;
/** Killed once this many links are written: a few batches in. */
const KILL_AT = IMPORT_BATCH * 4;
// A start on a machine shared by many test runs can take far longer than on its own.
const START_MS = 60_000;

/** One query's rows, on the server's database, through a connection of the test's own. */
async function query(databaseUrl: string, text: string): Promise<Array<Record<string, unknown>>> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(text).all() as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/** A statement that changes rows, on either engine. */
async function execute(databaseUrl: string, text: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    try {
      db.prepare(text).run();
    } finally {
      db.close();
    }
    return;
  }
  await query(databaseUrl, text);
}

const count = async (databaseUrl: string, table: string) =>
  Number((await query(databaseUrl, `select count(*) as n from ${table}`))[0]!.n);

for (const engine of ENGINES)
  describe(`kill -9 mid-import [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDatabase;
    const servers: ServerProcess[] = [];
    const aliases = Array.from({ length: ROWS }, (_, i) => `imp${String(i).padStart(6, '0')}`);
    const file = `alias,url\n${aliases.map((a) => `${a},https://example.com/${a}`).join('\n')}\n`;

    before(async () => {
      db = await clickDatabase(engine.name, 'import-kill');
    });

    after(async () => {
      for (const server of servers)
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await db?.cleanup();
    });

    const upload = async (server: ServerProcess, key: string) => {
      const { body, headers } = await multipartBody([{ field: 'file', bytes: file, name: 'links.csv' }]);
      return fetch(`${server.base}/api/v1/links/import`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${key}` },
        body,
      });
    };

    test('whole batches written, none half; the leases hold until they run out; a re-run skips what was written and creates the rest', async (t) => {
      const env = { DATABASE_URL: db.databaseUrl };
      const key = await cliAccountKey(env, 'kill-import@example.com');
      const victim = await startServerProcess(env, START_MS);
      servers.push(victim);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        victim.child.on('exit', (_, signal) => resolve(signal)),
      );
      const answer = upload(victim, key).then(
        (res) => res.status,
        () => 'no answer' as const,
      );
      await eventually(
        'the import has written a few batches',
        async () => (await count(db.databaseUrl, 'links')) >= KILL_AT,
        {
          timeoutMs: 60_000,
          everyMs: 10,
        },
      );
      victim.child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      assert.equal(await answer, 'no answer');

      const written = (await query(db.databaseUrl, 'select alias from links order by alias')).map((r) =>
        String(r.alias),
      );
      t.diagnostic(`${written.length} of ${ROWS} links written when killed`);
      assert.ok(written.length < ROWS, `the import ended before the kill (${written.length} links)`);
      assert.equal(written.length % IMPORT_BATCH, 0, `whole batches of ${IMPORT_BATCH}: ${written.length} links`);
      assert.deepEqual(
        written,
        aliases.slice(0, written.length),
        'the batches from the start of the file, in order, none skipped',
      );
      const audited = Number(
        (await query(db.databaseUrl, "select count(*) as n from audit_entries where action = 'link.created'"))[0]!.n,
      );
      assert.equal(audited, written.length, "every link written with its audit entry, in its batch's transaction");

      const restarted = await startServerProcess(env, START_MS);
      servers.push(restarted);
      // The killed instance's leases are still live: the account is refused until they run out.
      const early = await upload(restarted, key);
      assert.equal(early.status, 429, await early.text());
      // A minute on, they have: moved on here rather than waited for.
      await execute(db.databaseUrl, `update import_leases set lease_until = 0`);
      await execute(db.databaseUrl, `update import_person_leases set lease_until = 0`);
      const rerun = await upload(restarted, key);
      const report = (await rerun.json()) as { data: { counts: Record<string, number> } };
      assert.equal(rerun.status, 200, JSON.stringify(report));
      assert.deepEqual(report.data.counts, {
        created: ROWS - written.length,
        replaced: 0,
        renamed: 0,
        skipped: written.length,
        error: 0,
      });
      assert.equal(await count(db.databaseUrl, 'links'), ROWS);
      assert.equal(Number((await query(db.databaseUrl, 'select count(distinct alias) as n from links'))[0]!.n), ROWS);
      assert.equal(await count(db.databaseUrl, 'import_leases'), 0, 'given back when done');
      restarted.child.kill('SIGTERM');
    });
  });
