import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ClaimedExpiry, ExpiryClaims } from '../../../core/webhooks/ports.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';

/**
 * Links expired and not yet told, marked told as they are taken (docs/design/webhooks.md). Each claim is
 * one UPDATE: on PostgreSQL its rows are picked `for update skip locked` and the outer
 * `expiry_told = 0` is checked again on the row as it is after any concurrent claim, so two
 * instances never take the same link; SQLite has one writer, so the statement alone is enough.
 * The pick is a materialized CTE: as an `in (subquery)` the planner may join it and scan it again
 * per row, and each scan past the rows it locked picks more, taking more than `limit`.
 * By date and by cap are two statements, each served by its partial index (migration 0015).
 */
export class SqlExpiryClaims implements ExpiryClaims {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async claim(now: number, limit: number): Promise<ClaimedExpiry[]> {
    const byDate = await this.take(sql`ends_at <= ${now}`, limit);
    const byCap = await this.take(sql`expiration_clicks > 0 and clicks >= expiration_clicks`, limit);
    return [...byDate, ...byCap];
  }

  private async take(due: RawBuilder<unknown>, limit: number): Promise<ClaimedExpiry[]> {
    // Most rounds find no link newly expired: a read on the partial index says so before the
    // update asks for SQLite's write lock (docs/design/clicks.md).
    const { rows: found } = await sql`select 1 from links where expiry_told = 0 and ${due} limit 1`.execute(this.db);
    if (found.length === 0) return [];
    const lock = this.engine === 'postgres' ? sql`for update skip locked` : sql``;
    const { rows } = await sql<{ id: number; account_id: number }>`
      with picked as materialized (select id from links where expiry_told = 0 and ${due} limit ${limit} ${lock})
      update links set expiry_told = 1
      where expiry_told = 0 and id in (select id from picked)
      returning id, account_id`.execute(this.db);
    return rows.map((r) => ({ id: Number(r.id), accountId: Number(r.account_id) }));
  }
}
