import { sql, type Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import type { ClickStatements } from '../writer/click-statements.ts';

// SQLite allows 32 766 bound values per statement: 500 links, 1 000 rollup rows of 5, 500 link pairs.
const LINKS_PER_SELECT = 500;
const ROWS_PER_STATEMENT = 1000;
const PAIRS_PER_UPDATE = 500;

function* chunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/**
 * SQLite's statements for the recovery of a dead writer's batches (click-recovery.ts), which runs
 * on the server's connection; the writer's own are SqliteClickWrites's. Multi-row VALUES, since SQLite has neither arrays nor row locks. It runs one writer at a
 * time, so the transaction alone keeps writers apart.
 */
export const sqliteClickStatements: ClickStatements = {
  async keepLinks(trx, ids) {
    // One writer at a time: nothing can delete a link while this transaction runs.
    const live = new Map<number, boolean>();
    for (const part of chunks(ids, LINKS_PER_SELECT)) {
      for (const r of await trx
        .selectFrom('links')
        .select(['id', 'expiration_clicks'])
        .where('id', 'in', part)
        .execute()) {
        live.set(r.id, (r.expiration_clicks ?? 0) > 0);
      }
    }
    return live;
  },

  async updateLinks(trx, updates) {
    await setLinks(
      trx,
      'clicks',
      updates.filter((u) => u.clicks > 0).map((u) => [u.id, u.clicks]),
      'add',
    );
    await setLinks(
      trx,
      'last_rotation',
      updates.flatMap((u) => (u.rotation === null ? [] : [[u.id, u.rotation]])),
      'set',
    );
  },

  countWindow(trx, updates) {
    return sqliteClickStatements.updateLinks(trx, updates);
  },

  async insertMarks(trx, marks) {
    const fresh: Array<{ linkId: number; day: string }> = [];
    for (const part of chunks(marks, ROWS_PER_STATEMENT)) {
      const inserted = await trx
        .insertInto('click_visitors')
        .values(part.map((m) => ({ day: m.day, link_id: m.linkId, visitor: m.visitor })))
        .onConflict((oc) => oc.doNothing())
        .returning(['link_id', 'day'])
        .execute();
      for (const r of inserted) fresh.push({ linkId: Number(r.link_id), day: r.day });
    }
    return fresh;
  },

  async upsertRollups(trx, increments) {
    for (const part of chunks(increments, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('click_rollups')
        .values(
          part.map((r) => ({ link_id: r.linkId, dimension: r.dimension, day: r.day, value: r.value, count: r.count })),
        )
        .onConflict((oc) =>
          oc
            .columns(['link_id', 'dimension', 'day', 'value'])
            .doUpdateSet((eb) => ({ count: eb('click_rollups.count', '+', eb.ref('excluded.count')) })),
        )
        .execute();
    }
  },

  async addAccountDays() {
    // SQLite's row triggers on click_rollups keep account_click_days (migration 0010), and
    // account_link_days and account_value_days (0050, 0054) from the `total` and `qr` rows, as
    // they are written.
  },
};

/**
 * One WITH v AS (VALUES …) UPDATE per 500 links instead of one statement per link (SQLite 3.33+).
 * "where id in (…)" makes SQLite walk v and look each link up by its key; a join in
 * UPDATE … FROM let it scan the whole links table instead.
 */
async function setLinks(
  trx: Transaction<Database>,
  column: 'clicks' | 'last_rotation',
  pairs: Array<[number, number]>,
  mode: 'add' | 'set',
): Promise<void> {
  for (const part of chunks(pairs, PAIRS_PER_UPDATE)) {
    const values = sql.join(part.map(([id, n]) => sql`(cast(${id} as integer), cast(${n} as bigint))`));
    const n = sql`(select v.n from v where v.id = links.id)`;
    const value = mode === 'add' ? sql`${sql.ref(`links.${column}`)} + ${n}` : n;
    await sql`with v(id, n) as (values ${values})
      update links set ${sql.ref(column)} = ${value} where id in (select id from v)`.execute(trx);
  }
}
