import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { int4Array } from './pg-binary-arrays.ts';

/**
 * Settles the pending counts of `ids` (PostgreSQL's link_click_counts, which the click writer's
 * windows add to and src/adapters/clicks/postgres/link-click-counts.ts settles now and then)
 * into their links' rows inside the caller's transaction, before it changes their click caps: a
 * capped link's count lives in `links.clicks` alone, where its status and claims read it. Call it
 * before the transaction writes the links' rows (a window holding a count's row may be waiting
 * for one of them). docs/design/clicks.md.
 */
export async function settlePendingClicks(
  trx: Kysely<Database>,
  accountId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  // The counts' rows locked in id order first, as a window adds to them; the account's links only.
  const held = await sql<{ link_id: number }>`select link_id from link_click_counts
    where link_id = any(${int4Array([...ids].sort((a, b) => a - b))}::int4[]) and link_id in (select id from links where account_id = ${accountId})
    order by link_id for update`.execute(trx);
  if (held.rows.length === 0) return;
  await sql`with gone as (delete from link_click_counts where link_id = any(${int4Array(held.rows.map((r) => r.link_id))}::int4[])
      returning link_id, clicks, last_rotation)
    update links set clicks = links.clicks + gone.clicks, last_rotation = coalesce(gone.last_rotation, links.last_rotation)
    from gone where links.id = gone.link_id`.execute(trx);
}
