import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Of a batch record `p` (click_batches_pending): its writer's lease ran out before `now`, or it
 * has none. The click writer's recovery claims such records (adapters/clicks/recovery/); the
 * folding round waits while any is left (docs/design/clicks.md, "Crash recovery").
 */
export const leaseExpired = (now: number) =>
  sql<boolean>`not exists (select 1 from click_writers w where w.owner = p.owner and w.lease_until >= ${now})`;

/**
 * Whether a writer whose lease ran out before `now` left batches to roll up. A read: on SQLite,
 * asking first spares the rounds that find nothing a wait for the writer's lock.
 */
export async function recoveryDue(db: Kysely<Database>, now: number): Promise<boolean> {
  const { rows } = await sql`select 1 from click_batches_pending p where ${leaseExpired(now)} limit 1`.execute(db);
  return rows.length > 0;
}
