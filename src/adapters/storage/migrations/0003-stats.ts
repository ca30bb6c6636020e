import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { localSlot } from '../../../core/stats/local-time.ts';
import { columnTypes } from './0001-initial.ts';

/**
 * Statistics rollups (docs/design/statistics.md): clicks per link, local day, dimension
 * and value, so that every statistics query reads at most days × values rows and never a
 * click row; first visits per link and local day for unique visitors; and an index on
 * clicks.at for the retention job. Existing clicks are rolled up here (uniques cannot be).
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { bigint } = columnTypes(engine);
  // Byte order on PostgreSQL, as on SQLite: both engines sort values alike, and comparing is cheaper.
  const c = (col: ColumnDefinitionBuilder) =>
    (engine === 'postgres' ? col.modifyFront(sql`collate "C"`) : col).notNull();
  let rollups = db.schema
    .createTable('click_rollups')
    .addColumn('link_id', 'integer', (col) => col.notNull().references('links.id').onDelete('cascade'))
    .addColumn('dimension', 'varchar(16)', c)
    .addColumn('day', 'varchar(10)', c)
    .addColumn('value', 'varchar(255)', c)
    .addColumn('count', bigint, (col) => col.notNull());
  // The key is the read path: one link, one dimension, a range of days, read off the key alone.
  // SQLite: the table is its key (without rowid), so the range is one contiguous read.
  // PostgreSQL: the key carries count (include), so the range is an index-only scan rather
  // than a heap page per day: days of history are never updated again, so vacuum marks them
  // all-visible.
  if (engine === 'sqlite') {
    rollups = rollups
      .addPrimaryKeyConstraint('click_rollups_pk', ['link_id', 'dimension', 'day', 'value'])
      .modifyEnd(sql`without rowid`);
  }
  await rollups.execute();
  if (engine === 'postgres') {
    await sql`alter table click_rollups add constraint click_rollups_pk primary key (link_id, dimension, day, value) include (count)`.execute(
      db,
    );
  }

  let visitors = db.schema
    .createTable('click_visitors')
    .addColumn('day', 'varchar(10)', c)
    .addColumn('link_id', 'integer', (col) => col.notNull())
    .addColumn('visitor', 'varchar(32)', c)
    // Day first: the retention job drops whole days.
    .addPrimaryKeyConstraint('click_visitors_pk', ['day', 'link_id', 'visitor']);
  if (engine === 'sqlite') visitors = visitors.modifyEnd(sql`without rowid`);
  await visitors.execute();

  await db.schema.createIndex('clicks_at').on('clicks').column('at').execute();
  await backfill(db);
}

/** @public Kysely's Migrator calls it, through the module object in index.ts, to migrate down. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clicks_at').ifExists().execute();
  await db.schema.dropTable('click_visitors').ifExists().execute();
  await db.schema.dropTable('click_rollups').ifExists().execute();
}

interface ClickRow {
  id: number;
  link_id: number;
  at: number;
  country: string | null;
  city: string | null;
  browser: string | null;
  platform: string | null;
  device: string | null;
  language: string | null;
  referrer_host: string | null;
  is_bot: number;
  timezone: string;
}

const CHUNK = 5000;

/** Rolls up the click rows written before this migration, in the account's zone of today. */
async function backfill(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<ClickRow>`
      select c.id, c.link_id, c.at, c.country, c.city, c.browser, c.platform, c.device, c.language,
             c.referrer_host, c.is_bot, a.timezone
      from clicks c join links l on l.id = c.link_id join accounts a on a.id = l.account_id
      where c.id > ${after} order by c.id limit ${CHUNK}`.execute(db);
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]!.id);
    const sums = new Map<string, { link_id: number; dimension: string; day: string; value: string; count: number }>();
    const add = (link: number, dimension: string, day: string, value: string | null) => {
      const v = (value ?? '').slice(0, 255);
      const key = `${link}\u0000${dimension}\u0000${day}\u0000${v}`;
      const found = sums.get(key);
      if (found) found.count++;
      else sums.set(key, { link_id: link, dimension, day, value: v, count: 1 });
    };
    for (const r of rows) {
      const { day, hour } = localSlot(Number(r.at), r.timezone);
      const link = Number(r.link_id);
      if (Number(r.is_bot) === 1) {
        add(link, 'bot', day, '');
        continue;
      }
      add(link, 'total', day, '');
      add(link, 'hour', day, hour < 10 ? `0${hour}` : String(hour));
      add(link, 'country', day, r.country);
      add(link, 'city', day, r.city);
      add(link, 'browser', day, r.browser);
      add(link, 'platform', day, r.platform);
      add(link, 'device', day, r.device);
      add(link, 'language', day, r.language);
      add(link, 'referrer', day, r.referrer_host);
    }
    const all = [...sums.values()];
    for (let i = 0; i < all.length; i += 1000) {
      await (
        db as Kysely<{
          click_rollups: { link_id: number; dimension: string; day: string; value: string; count: number };
        }>
      )
        .insertInto('click_rollups')
        .values(all.slice(i, i + 1000))
        .onConflict((oc) =>
          oc
            .columns(['link_id', 'dimension', 'day', 'value'])
            .doUpdateSet((eb) => ({ count: eb('click_rollups.count', '+', eb.ref('excluded.count')) })),
        )
        .execute();
    }
  }
}
