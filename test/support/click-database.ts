/**
 * The set-up of the e2e tests that stop or kill a server under redirect load and then count what
 * reached the database (sigterm-clicks, early-kill-clicks): a migrated database of their own on
 * either engine, read back with a connection of the test's own once the server is gone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Engine } from './harness.ts';
import { BIN, isolatedPgUrl, run } from './processes.ts';
import { testDatabaseUrl } from './test-database-url.ts';

export interface ClickDatabase {
  databaseUrl: string;
  /** A directory of the test's own (the SQLite file lives there), removed by `cleanup`. */
  dir: string;
  cleanup(): Promise<void>;
}

/** A fresh SQLite file or PostgreSQL schema, migrated by the `linkpix` command. */
export async function clickDatabase(engine: Engine['name'], name: string): Promise<ClickDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `linkpix-${name}-`));
  let databaseUrl = `sqlite:${join(dir, `${name}.db`)}`;
  let drop: (() => Promise<void>) | null = null;
  if (engine === 'postgres') {
    const isolated = await isolatedPgUrl(testDatabaseUrl());
    databaseUrl = isolated.url;
    drop = isolated.drop;
  }
  const migrated = await run(process.execPath, [BIN, 'migrate'], { DATABASE_URL: databaseUrl });
  assert.equal(migrated.code, 0, migrated.stderr);
  return {
    databaseUrl,
    dir,
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await drop?.();
    },
  };
}

export interface Written {
  /** links.clicks summed. */
  clicks: number;
  /** Click rows. */
  rows: number;
  /** Click rows of bots. */
  bots: number;
  /** The rollups' `total` summed. */
  total: number;
}

/** What the database holds of the clicks of `linkIds` (every link's when not given). */
export async function writtenTo(databaseUrl: string, linkIds?: readonly number[]): Promise<Written> {
  const of = linkIds === undefined ? '' : ` where link_id in (${linkIds.map(Number).join(',')})`;
  const and = linkIds === undefined ? ' where' : `${of} and`;
  // A link's count is links.clicks and, on PostgreSQL, its clicks not yet settled there (docs/design/clicks.md).
  const query = `select (select coalesce(sum(clicks), 0) from links${linkIds === undefined ? '' : ` where id in (${linkIds.map(Number).join(',')})`})
        + (select coalesce(sum(clicks), 0) from link_click_counts${of}) as clicks,
      (select count(*) from clicks${of}) as rows,
      (select count(*) from clicks${and} is_bot <> 0) as bots,
      (select coalesce(sum(count), 0) from click_rollups${and} dimension = 'total') as total`;
  const numbers = (row: Record<string, unknown>): Written => ({
    clicks: Number(row.clicks),
    rows: Number(row.rows),
    bots: Number(row.bots),
    total: Number(row.total),
  });
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return numbers(db.prepare(query).get() as Record<string, unknown>);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return numbers((await client.query(query)).rows[0] as Record<string, unknown>);
  } finally {
    await client.end();
  }
}
