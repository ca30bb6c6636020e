import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * The dashboard's first-run checklist, dismissed (docs/design/web.md): one row per person and
 * workspace who said "Dismiss", gone with either.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('first_steps_dismissals')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('dismissed_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('first_steps_dismissals_key', ['workspace_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('first_steps_dismissals').execute();
}
