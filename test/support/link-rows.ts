import type { Insertable, Kysely } from 'kysely';
import type { Database, LinksTable } from '../../src/adapters/storage/schema.ts';
import { unsettledCounts } from '../../src/adapters/storage/stores/link-rows.ts';

/**
 * A link's row as a test writes it straight in SQL, past the service (to load thousands at once,
 * or a schema of an earlier migration): the columns every link needs, the alias's key lowered as
 * the service stores it, then `more`.
 */
export function linkRow(
  accountId: number,
  alias: string,
  more: Partial<Insertable<LinksTable>> = {},
): Insertable<LinksTable> {
  return {
    account_id: accountId,
    alias,
    alias_key: alias.toLowerCase(),
    url: 'https://example.com/',
    target_type: 0,
    disabled: 0,
    privacy: 0,
    created_at: 0,
    updated_at: 0,
    ...more,
  };
}

/** Searchable links (alias, URL, title) of an account at `at`, straight in SQL, 500 rows a statement (under SQLite's bound parameters). */
export async function insertSearchRows(
  db: Kysely<Database>,
  accountId: number,
  rows: ReadonlyArray<{ alias: string; url: string; title: string | null }>,
  at: number,
  suffix = '',
): Promise<void> {
  const values = rows.map((r) =>
    linkRow(accountId, `${r.alias}${suffix}`, { url: r.url, title: r.title, created_at: at, updated_at: at }),
  );
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto('links')
      .values(values.slice(i, i + 500))
      .execute();
}

/**
 * A link's click count and last rotation position as its reads show them: with, on PostgreSQL,
 * what is not yet settled into its row (docs/design/clicks.md). Undefined: no such link.
 */
export async function linkCounter(
  db: Kysely<Database>,
  id: number,
): Promise<{ clicks: number; last_rotation: number | null } | undefined> {
  const row = await db
    .selectFrom('links')
    .select(['clicks', 'last_rotation'])
    .select(unsettledCounts)
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      clicks: row.clicks + Number(row.pending_clicks ?? 0),
      last_rotation: row.pending_rotation ?? row.last_rotation,
    }
  );
}
