import type { Kysely } from 'kysely';
import { changesOf } from '../../../core/audit/audit-changes.ts';
import { stateOf } from '../../../core/links/link-history.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { toLink } from '../stores/link-rows.ts';
import { columnTypes } from './0001-initial.ts';

const LINKS_PER_ROUND = 500;

/**
 * Every version of every link (docs/design/history.md), keyed by link and version: the list
 * reads one link's versions newest first off the key. Deleted with its link, never by
 * retention. Each link there is now gets its version 1: its state as this migration finds it,
 * at its last change, by no person (`via: "cli"`, the operator who migrated).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .createTable('link_history')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('at', bigint, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('key_id', 'integer')
    .addColumn('via', 'varchar(8)', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_history_key', ['link_id', 'version'])
    .execute();
  await backfill(db as Kysely<Database>);
}

/** Version 1 of each existing link, a round of links at a time in id order. */
async function backfill(db: Kysely<Database>): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('links')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(LINKS_PER_ROUND)
      .execute();
    if (rows.length === 0) return;
    const pairs = await db
      .selectFrom('link_pixels')
      .select(['link_id', 'pixel_id'])
      .where(
        'link_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const pixelsOf = new Map<number, number[]>();
    for (const p of pairs) pixelsOf.set(p.link_id, [...(pixelsOf.get(p.link_id) ?? []), p.pixel_id]);
    await db
      .insertInto('link_history')
      .values(
        rows.map((r) => {
          const state = stateOf(
            toLink({ ...r, pending_clicks: null, pending_rotation: null }, pixelsOf.get(r.id) ?? []),
          );
          return {
            link_id: r.id,
            account_id: r.account_id,
            version: 1,
            at: Number(r.updated_at),
            user_id: null,
            key_id: null,
            via: 'cli',
            restored_from: null,
            changes: JSON.stringify(changesOf(null, state)),
            state: JSON.stringify(state),
          };
        }),
      )
      .execute();
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_history').execute();
}
