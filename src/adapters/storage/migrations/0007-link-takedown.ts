import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * An operator's takedown of a link (abuse, phishing) is kept apart from its owner's `disabled`:
 * the link is disabled while `blocked_at` is set, and only an operator clears it.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('links').addColumn('blocked_at', columnTypes(engine).bigint).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('links').dropColumn('blocked_at').execute();
}
