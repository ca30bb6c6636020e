import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import type { ClaimAnswer, ClickClaimStore } from '../../../core/clicks/ports.ts';
import { unsettledClicks } from './link-rows.ts';

/**
 * Click caps counted in the database while Redis is away (docs/design/caps.md). Each statement is one
 * conditional write on the link's row, so concurrent claims from any number of instances
 * serialise on its lock (PostgreSQL) or the single writer (SQLite) and never pass the cap.
 */
export class SqlClickClaimStore implements ClickClaimStore {
  private readonly greatest: string;

  constructor(
    private readonly db: Kysely<Database>,
    engine: Engine,
  ) {
    this.greatest = engine === 'postgres' ? 'greatest' : 'max';
  }

  async open(
    linkId: number,
    floor: number,
    options: { lostAt: number; force?: boolean },
  ): Promise<'open' | 'closed' | 'gone'> {
    const recorded = await this.recorded(linkId);
    if (recorded === null) return 'gone';
    const seed = Math.max(Number.isInteger(floor) ? floor : 0, recorded);
    const opened = await this.db
      .insertInto('click_claims')
      .values({ link_id: linkId, claimed: seed, open: 1, closed_at: null })
      .onConflict((oc) => {
        const update = oc.column('link_id').doUpdateSet({
          claimed: sql<number>`${sql.raw(this.greatest)}(click_claims.claimed, excluded.claimed)`,
          open: 1,
        });
        // Closed after this instance lost Redis: another one has it, and counts there now.
        return options.force
          ? update
          : update.where((eb) =>
              eb.or([
                eb('click_claims.open', '=', 1),
                eb('click_claims.closed_at', 'is', null),
                eb('click_claims.closed_at', '<=', options.lostAt),
              ]),
            );
      })
      .returning('claimed')
      .executeTakeFirst();
    return opened ? 'open' : 'closed';
  }

  async claim(linkId: number, cap: number): Promise<ClaimAnswer> {
    if (!Number.isInteger(cap)) return 'refused'; // a cap that is not a number refuses, as in memory
    const granted = await this.db
      .updateTable('click_claims')
      .set({ claimed: sql<number>`claimed + 1` })
      .where('link_id', '=', linkId)
      .where('open', '=', 1)
      .where('claimed', '<', cap)
      .returning('claimed')
      .executeTakeFirst();
    if (granted) return 'granted';
    const row = await this.db
      .selectFrom('click_claims')
      .select('open')
      .where('link_id', '=', linkId)
      .executeTakeFirst();
    return !row ? 'missing' : row.open === 1 ? 'refused' : 'closed';
  }

  async close(linkId: number, at: number): Promise<number | null> {
    // A count never opened is closed too: an instance that lost Redis before `at` and opens one
    // after must find it closed, or it would count here while Redis counts (docs/design/caps.md).
    const row = await this.db
      .insertInto('click_claims')
      .columns(['link_id', 'claimed', 'open', 'closed_at'])
      .expression((eb) =>
        eb
          .selectFrom('links')
          .select((s) => ['id', 'clicks', s.lit(0).as('open'), sql<number>`cast(${at} as bigint)`.as('closed_at')])
          .where('id', '=', linkId),
      )
      .onConflict((oc) => oc.column('link_id').doUpdateSet({ open: 0, closed_at: at }))
      .returning('claimed')
      .executeTakeFirst();
    const recorded = await this.recorded(linkId);
    if (recorded === null) return row ? Number(row.claimed) : null;
    return Math.max(recorded, row ? Number(row.claimed) : 0);
  }

  /** The link's clicks as written so far (settled and pending), or null when it is gone. */
  private async recorded(linkId: number): Promise<number | null> {
    const link = await this.db
      .selectFrom('links')
      .select('clicks')
      .select(unsettledClicks)
      .where('id', '=', linkId)
      .executeTakeFirst();
    return link ? link.clicks + Number(link.pending_clicks ?? 0) : null;
  }

  async claimed(linkId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('click_claims')
      .select('claimed')
      .where('link_id', '=', linkId)
      .executeTakeFirst();
    return row ? Number(row.claimed) : null;
  }
}
