import type { Kysely } from 'kysely';

/** How a webhook's deliveries are written (docs/api.md §14): the JSON envelope, as every webhook so far, or a Slack message. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhooks')
    .addColumn('format', 'varchar(16)', (c) => c.notNull().defaultTo('json'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('format').execute();
}
