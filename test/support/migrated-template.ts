/**
 * A fresh database already migrated, copied from one the process migrated once, instead of every
 * suite running the 40-odd migrations again: a SQLite file copied from a migrated template file,
 * a PostgreSQL schema created from a migrated template schema's dump (pg_dump, its name
 * replaced). What a copy holds is what migrating it would have left: the tables, indexes,
 * triggers, functions and the rows the migrations write, `kysely_migration` among them, so the
 * server's own migrate at its start finds nothing to do. Without pg_dump (or when it fails) a
 * schema is migrated as before. The migrations' own tests start from empty storage
 * (empty-storage.ts) and never come through here.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { connect } from '../../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../../src/adapters/storage/migrations/index.ts';

const run = promisify(execFile);

/** The runner's list of what to close once its process has run every file (scripts/run-tests.mjs). */
const AT_PROCESS_END = Symbol.for('linkpix.tests.atProcessEnd');
const atProcessEnd = (): (() => Promise<void>)[] | undefined =>
  (globalThis as { [AT_PROCESS_END]?: (() => Promise<void>)[] })[AT_PROCESS_END];

let sqliteTemplate: Promise<string> | undefined;

/** The process's migrated SQLite file, made on first use. */
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkpix-template-'));
    const file = join(dir, 'template.db');
    const storage = connect(`sqlite:${file}`);
    try {
      await migrateToLatest(storage.db, 'sqlite');
    } finally {
      await storage.close();
    }
    // The last connection's close folded the WAL into the file: the file alone is the database.
    if (existsSync(`${file}-wal`)) throw new Error(`the template ${file} kept a WAL after its close`);
    atProcessEnd()?.push(async () => rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return sqliteTemplate;
}

/** Puts a migrated SQLite database at `path` (which must not exist yet). */
export async function migratedSqliteAt(path: string): Promise<void> {
  copyFileSync(await migratedSqliteFile(), path);
}

/** pg_dump's SQL of the process's migrated template schema, its name as a placeholder; null without pg_dump. */
let pgTemplate: Promise<{ sql: string; name: string } | null> | undefined;

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** What of pg_dump's output is a statement to replay: not psql's meta-commands, not its session settings. */
function replayable(dump: string): string {
  return dump
    .split('\n')
    .filter((line) => !/^(\\|SET |SELECT pg_catalog\.set_config\(|--)/.test(line))
    .join('\n');
}

function migratedPgDump(url: string): Promise<{ sql: string; name: string } | null> {
  pgTemplate ??= (async () => {
    const name = `lp_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withPg(url, (c) => c.query(`create schema ${name}`));
    try {
      const storage = connect(url, { schema: name, poolSize: 1 });
      try {
        await migrateToLatest(storage.db, 'postgres');
      } finally {
        await storage.close();
      }
      const dumped = await run(
        'pg_dump',
        ['--dbname', url, '--schema', name, '--no-owner', '--no-privileges', '--inserts'],
        {
          maxBuffer: 64 * 1024 * 1024,
        },
      ).catch(() => null);
      return dumped ? { sql: replayable(dumped.stdout), name } : null;
    } finally {
      await withPg(url, (c) => c.query(`drop schema ${name} cascade`));
    }
  })();
  return pgTemplate;
}

/**
 * Creates `schema` in the database of `url`, migrated: the template's dump replayed in one
 * transaction (everything in it is named with its schema), or the migrations run there.
 */
export async function createMigratedSchema(url: string, schema: string): Promise<void> {
  const template = await migratedPgDump(url);
  if (template === null) {
    await withPg(url, (c) => c.query(`create schema ${schema}`));
    const storage = connect(url, { schema, poolSize: 1 });
    try {
      await migrateToLatest(storage.db, 'postgres');
    } finally {
      await storage.close();
    }
    return;
  }
  const statements = template.sql.split(template.name).join(schema);
  await withPg(url, (c) =>
    c.query(`begin; set local search_path = ''; set local check_function_bodies = false; ${statements}; commit;`),
  );
}
