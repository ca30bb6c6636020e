import type { Kysely } from 'kysely';

/**
 * A link's rules (docs/design/rules.md): JSON text, null for none. Read with the link, never queried
 * into, so text on both engines (PostgreSQL's jsonb would only reorder keys on the way back).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').addColumn('rules', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('rules').execute();
}
