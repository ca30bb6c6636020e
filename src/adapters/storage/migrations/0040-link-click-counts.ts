import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/**
 * `link_click_counts`: the clicks of links without a click cap that the click writer's windows
 * have counted since they were last settled into `links.clicks`, and the last rotation position
 * they served since (docs/design/clicks.md). On PostgreSQL `links.clicks` is in three of the links'
 * indexes, so no update of it is HOT: each writes an entry in all twenty (and so does an update of
 * `last_rotation`, as the links' pages keep no room free). This table's only index is its key and
 * its pages keep room free, so a window's updates write no index entry; the links' rows are
 * updated once a settle round instead of once a window. Reads add the two. SQLite's writer keeps
 * counting in `links.clicks` (its updates rewrite only the indexes holding the column), so there
 * the table stays empty and its reads find nothing.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const storage = engine === 'postgres' ? sql` with (fillfactor = 70)` : sql``;
  await sql`create table link_click_counts (
    link_id integer not null primary key references links (id) on delete cascade,
    clicks bigint not null,
    last_rotation bigint)${storage}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update links set clicks = links.clicks + (select p.clicks from link_click_counts p where p.link_id = links.id),
      last_rotation = coalesce((select p.last_rotation from link_click_counts p where p.link_id = links.id), links.last_rotation)
    where id in (select link_id from link_click_counts)`.execute(db);
  await sql`drop table link_click_counts`.execute(db);
}
