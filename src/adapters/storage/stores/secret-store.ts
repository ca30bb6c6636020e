import type { Kysely } from 'kysely';
import { randomToken } from '../../../core/shared/secrets.ts';
import type { Database } from '../schema.ts';

/**
 * A secret generated once and kept in the database, so every instance sharing the database
 * signs and checks cookies alike without the operator having to configure one.
 */
export async function sharedSecret(db: Kysely<Database>, name: string): Promise<string> {
  const found = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirst();
  if (found) return found.value;
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomToken(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
