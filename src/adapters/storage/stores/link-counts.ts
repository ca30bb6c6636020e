import type { ExpressionBuilder, Kysely } from 'kysely';
import { LinkStatus, type LinkFilter } from '../../../core/links/link.ts';
import type { Database } from '../schema.ts';
import { countOf } from '../sql-helpers.ts';

type LinksEb = ExpressionBuilder<Database, 'links'>;

/** A list's total read from the counters kept by triggers (docs/design/links.md), where its filter allows. */
export class LinkCounts {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The list's total without counting the account's links, where the filter allows: the space,
   * domain and disabled flag are summed from `account_link_counts` (migrations 0014, 0016). Those
   * rows also say which links the expiry sweep found expired (`expiry_told`; a told link is an
   * expired one), so active and expired need count only the links that expired since its last
   * round, in the two partial indexes of untold links (by date, then by cap among the rest).
   * A search, a pixel, a tag or a health (none of them in those rows): null.
   */
  total(accountId: number, filter: LinkFilter, now: number): Promise<number> | null {
    if (filter.search || filter.pixelId !== undefined || filter.tag !== undefined || filter.health !== undefined)
      return null;
    let counted = this.db
      .selectFrom('account_link_counts')
      .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
      .where('account_id', '=', accountId);
    if (filter.spaceId !== undefined) counted = counted.where('space_id', '=', filter.spaceId);
    if (filter.domainId !== undefined) counted = counted.where('domain_id', '=', filter.domainId);
    if (filter.status === LinkStatus.All) return counted.executeTakeFirst().then(countOf);
    if (filter.status === LinkStatus.Disabled)
      return counted.where('disabled', '=', 1).executeTakeFirst().then(countOf);
    const enabled = counted.where('disabled', '=', 0);
    const told = enabled.where('expiry_told', '=', 1).executeTakeFirst().then(countOf);
    const untold = enabled.where('expiry_told', '=', 0).executeTakeFirst().then(countOf);
    const untoldOfTheList = (eb: LinksEb) => {
      const conditions = [eb('account_id', '=', accountId), eb('disabled', '=', 0), eb('expiry_told', '=', 0)];
      if (filter.spaceId !== undefined) conditions.push(eb('space_id', '=', filter.spaceId));
      if (filter.domainId !== undefined) conditions.push(eb('domain_id', '=', filter.domainId));
      return conditions;
    };
    const byDate = this.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('count'))
      .where((eb) => eb.and([...untoldOfTheList(eb), eb('ends_at', 'is not', null), eb('ends_at', '<=', now)]))
      .executeTakeFirst()
      .then(countOf);
    const byCap = this.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('count'))
      .where((eb) =>
        eb.and([
          ...untoldOfTheList(eb),
          eb('expiration_clicks', '>', 0),
          eb('clicks', '>=', eb.ref('expiration_clicks')),
          eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]),
        ]),
      )
      .executeTakeFirst()
      .then(countOf);
    return Promise.all([told, untold, byDate, byCap]).then(([expiredTold, open, date, cap]) =>
      filter.status === LinkStatus.Expired ? expiredTold + date + cap : open - date - cap,
    );
  }
}
