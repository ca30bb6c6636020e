import { setImmediate as yieldToIo } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import { int4Array, int8Array } from '../../storage/stores/pg-binary-arrays.ts';

// Links settled per transaction: each is one update of a links row and its twenty index entries.
const LINKS_PER_SETTLE = 2_000;

/**
 * PostgreSQL's clicks of links without a click cap and their rotation positions, counted by the
 * click writer's windows into link_click_counts and settled into the links' rows now and then
 * (docs/design/clicks.md, migration 0040). Every read of a link takes both (unsettledCounts), so a count
 * shown is always exact; only the order of a list sorted by clicks, read off `links.clicks`'
 * index, waits for the settle. SQLite's writers count in `links.clicks`: its table stays empty. A
 * link whose click cap changes is settled in the edit's own transaction instead
 * (storage/stores/link-pending-clicks.ts).
 */
export class LinkClickCounts {
  /** Where the next round goes on from: a round that ran out of time left the links after this. */
  private after = 0;
  private readonly linksPerSettle: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: { linksPerSettle?: number } = {},
  ) {
    this.linksPerSettle = options.linksPerSettle ?? LINKS_PER_SETTLE;
  }

  /**
   * The window's counts and rotation positions, added in the order given (id order, the order
   * every writer locks in).
   */
  static async add(
    trx: Kysely<Database>,
    counts: ReadonlyArray<{ id: number; clicks: number; rotation: number | null }>,
  ): Promise<void> {
    if (counts.length === 0) return;
    await sql`insert into link_click_counts (link_id, clicks, last_rotation)
      select * from unnest(${int4Array(counts.map((c) => c.id))}::int4[], ${int8Array(counts.map((c) => c.clicks))}::int8[],
        ${int8Array(counts.map((c) => c.rotation))}::int8[])
      on conflict (link_id) do update set clicks = link_click_counts.clicks + excluded.clicks,
        last_rotation = coalesce(excluded.last_rotation, link_click_counts.last_rotation)`.execute(trx);
  }

  /**
   * Settles every pending count into its link's row, a transaction of up to LINKS_PER_SETTLE links
   * at a time in id order, until the last link or `ms` have passed (the next round goes on from
   * there, so that a backlog larger than a round still reaches every link); answers how many
   * links. Rows a window or an edit holds are passed over (SKIP LOCKED) and settled next time, so a
   * settle waits for no one, and no one waits for it beyond one transaction.
   */
  async settle(ms = Infinity): Promise<number> {
    const until = performance.now() + ms;
    let settled = 0;
    for (;;) {
      const after = this.after;
      const { rows } = await sql<{ picked: string; settled: string; last: number | null }>`with picked as (
          select link_id from link_click_counts where link_id > ${after} order by link_id limit ${this.linksPerSettle} for update skip locked),
        kept as (select id from links where id in (select link_id from picked) order by id for no key update skip locked),
        gone as (delete from link_click_counts where link_id in (select id from kept) returning link_id, clicks, last_rotation),
        moved as (update links set clicks = links.clicks + gone.clicks, last_rotation = coalesce(gone.last_rotation, links.last_rotation)
          from gone where links.id = gone.link_id returning 1)
        select (select count(*) from picked) as picked, (select count(*) from moved) as settled, (select max(link_id) from picked) as last`.execute(
        this.db,
      );
      const row = rows[0];
      settled += Number(row?.settled ?? 0);
      if (Number(row?.picked ?? 0) < this.linksPerSettle || row?.last == null) {
        this.after = 0;
        return settled;
      }
      this.after = Number(row.last);
      if (performance.now() >= until) return settled;
      await yieldToIo();
    }
  }
}
