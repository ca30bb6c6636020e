import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** The list's `search` columns (api.md §5, `by`). */
const SEARCHED = ['title', 'alias', 'url'] as const;

/**
 * Link search through an index (docs/design/links.md). The list
 * filters with `lower(col) like '%…%'`, which read every link of the account.
 *
 * PostgreSQL: pg_trgm GIN indexes on `lower(col)`; the query keeps its form, and the planner
 * answers `like '%…%'` from them (rechecking each row, so the result is the scan's). The
 * extension is one per database: its operator class is named with the schema it lives in,
 * since linkpix may work in a schema of its own (the tests do) with only that on search_path.
 * Concurrent migrations of several schemas take turns creating it.
 *
 * SQLite: an FTS5 table with the trigram tokenizer holding `lower(col)` — the connection's
 * lower(), JavaScript's toLowerCase (connect.ts), so the index folds case as the query does;
 * FTS5's own folding (case_sensitive 0) is older Unicode and would miss some letters. It is
 * contentless with deletes by rowid (SQLite ≥ 3.43): nothing stored twice, and no delete needs
 * the old values (an external-content table's does, and values lowered differently, by a
 * connection without linkpix's lower(), would corrupt it). Triggers keep it in step; an update
 * of the clicks counters does not touch it.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext('linkpix: create extension pg_trgm'))`.execute(db);
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const { rows } = await sql<{
      schema: string;
    }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
    const opclass = sql`${sql.id(rows[0]!.schema)}.gin_trgm_ops`;
    // "if not exists": an operator may have built them beforehand, concurrently (docs/operations.md).
    for (const column of SEARCHED) {
      await sql`create index if not exists ${sql.id(`links_search_${column}`)} on links using gin (lower(${sql.ref(column)}) ${opclass})`.execute(
        db,
      );
    }
    return;
  }
  // Kysely runs SQLite migrations outside a transaction: the table, its triggers and its rows
  // come together or not at all.
  await db.transaction().execute(async (trx) => {
    await sql`create virtual table link_search using fts5(title, alias, url,
      content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0')`.execute(trx);
    const row = (r: string) => sql.raw(`${r}.id, lower(${r}.title), lower(${r}.alias), lower(${r}.url)`);
    await sql`create trigger links_search_insert after insert on links begin
      insert into link_search (rowid, title, alias, url) values (${row('new')}); end`.execute(trx);
    await sql`create trigger links_search_delete after delete on links begin
      delete from link_search where rowid = old.id; end`.execute(trx);
    await sql`create trigger links_search_update after update of id, title, alias, url on links begin
      delete from link_search where rowid = old.id;
      insert into link_search (rowid, title, alias, url) values (${row('new')}); end`.execute(trx);
    await sql`insert into link_search (rowid, title, alias, url) select ${row('links')} from links`.execute(trx);
  });
}

export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    // The extension stays: other schemas of the database may use it.
    for (const column of SEARCHED) await db.schema.dropIndex(`links_search_${column}`).ifExists().execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const trigger of ['links_search_insert', 'links_search_delete', 'links_search_update'])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(trx);
    await sql`drop table if exists link_search`.execute(trx);
  });
}
