import type { Kysely } from 'kysely';
import type { LinkState } from '../../../core/links/link-history.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { columnTypes } from './0001-initial.ts';

const LINKS_PER_ROUND = 500;

/**
 * Versions keep a link's tags (docs/design/history.md): each link's last version is given the
 * tags the link has now, so the next change's `tags` is told against them; older versions keep
 * none (a restore of one leaves the tags as they are). The broken-links digest
 * (docs/design/health.md): a person's choice to get it (on by default) and one row per digest
 * claimed, keyed by workspace, person and UTC day, so that one is sent a day however many
 * instances run; `until` is where the person's next digest starts.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  await db.schema
    .alterTable('users')
    .addColumn('health_digest', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('health_digests')
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('until', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('health_digests_key', ['workspace_id', 'user_id', 'day'])
    .execute();
  await tagLastVersions(db as Kysely<Database>);
}

/** Each link's last version given the link's tags now, a round of links at a time in id order. */
async function tagLastVersions(db: Kysely<Database>): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('link_history as h')
      .select(['h.link_id', 'h.version', 'h.state'])
      .where('h.link_id', '>', after)
      .where((eb) =>
        eb(
          'h.version',
          '=',
          eb
            .selectFrom('link_history as newest')
            .select((n) => n.fn.max('newest.version').as('last'))
            .whereRef('newest.link_id', '=', 'h.link_id'),
        ),
      )
      .orderBy('h.link_id')
      .limit(LINKS_PER_ROUND)
      .execute();
    if (rows.length === 0) return;
    const tagged = await db
      .selectFrom('link_tags')
      .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
      .select(['link_tags.link_id', 'tags.id', 'tags.name'])
      .where(
        'link_tags.link_id',
        'in',
        rows.map((r) => r.link_id),
      )
      .execute();
    const tagsOf = new Map<number, Array<{ id: number; name: string }>>();
    for (const t of tagged) tagsOf.set(t.link_id, [...(tagsOf.get(t.link_id) ?? []), { id: t.id, name: t.name }]);
    for (const r of rows) {
      const tags = (tagsOf.get(r.link_id) ?? []).sort((a, b) => a.name.localeCompare(b.name));
      const state: LinkState = { ...(JSON.parse(r.state) as LinkState), tags };
      await db
        .updateTable('link_history')
        .set({ state: JSON.stringify(state) })
        .where('link_id', '=', r.link_id)
        .where('version', '=', r.version)
        .execute();
    }
    after = rows[rows.length - 1]!.link_id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('health_digests').execute();
  await db.schema.alterTable('users').dropColumn('health_digest').execute();
}
