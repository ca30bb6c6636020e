import type { ExpressionBuilder, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { LinkStatus, type LinkFilter } from '../../../core/links/link.ts';
import { tagKey } from '../../../core/tags/tag-names.ts';
import type { Engine } from '../connect.ts';
import type { Database, LinksTable } from '../schema.ts';
import { LinkSearch } from './link-search.ts';

type LinksEb = ExpressionBuilder<Database, 'links'>;

/** The status partition of api.md §5: core/expiration/expiry.ts in SQL (test/integration/links/expiry-agreement.test.ts holds the two together). */
function expired(eb: LinksEb, now: number) {
  return eb.or([
    eb.and([eb('ends_at', 'is not', null), eb('ends_at', '<=', now)]),
    // "is not null" keeps the whole test true or false: a NULL here would make NOT(expired)
    // NULL too, and status=1 would lose every link without a click limit.
    eb.and([
      eb('expiration_clicks', 'is not', null),
      eb('expiration_clicks', '>', 0),
      eb('clicks', '>=', eb.ref('expiration_clicks')),
    ]),
  ]);
}

/** The list's order (api.md §5): by clicks, then the newest first; or by id. */
export function ordered<Q extends SelectQueryBuilder<Database, 'links', Selectable<LinksTable>>>(
  q: Q,
  sort: LinkFilter['sort'],
): Q {
  if (sort === 'max' || sort === 'min')
    return q.orderBy('clicks', sort === 'max' ? 'desc' : 'asc').orderBy('id', 'desc') as Q;
  return q.orderBy('id', sort) as Q;
}

/** The list's filters (api.md §5) as a query of the account's links. */
export class LinkMatching {
  private readonly search: LinkSearch;

  constructor(
    private readonly db: Kysely<Database>,
    engine: Engine,
  ) {
    this.search = new LinkSearch(db, engine);
  }

  /** The account's links that pass the list's filters (api.md §5), before sort and page. */
  async query(accountId: number, filter: LinkFilter, now: number) {
    let q = this.db.selectFrom('links').where('account_id', '=', accountId);
    if (filter.search) q = q.where(await this.search.condition(accountId, filter.by, filter.search));
    if (filter.spaceId !== undefined) q = q.where('space_id', '=', filter.spaceId);
    if (filter.domainId !== undefined) q = q.where('domain_id', '=', filter.domainId);
    if (filter.pixelId !== undefined) {
      const pixelId = filter.pixelId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('link_pixels')
            .select('link_id')
            .whereRef('link_pixels.link_id', '=', 'links.id')
            .where('link_pixels.pixel_id', '=', pixelId),
        ),
      );
    }
    if (filter.tag !== undefined) {
      // The tag's id first: the planner then reads the tag's own links off link_tags_tag (tag, link)
      // by its statistics of that tag, where a join to `tags` left it guessing and walking them all.
      const tag = await this.db
        .selectFrom('tags')
        .select('id')
        .where('account_id', '=', accountId)
        .where('name_key', '=', tagKey(filter.tag))
        .executeTakeFirst();
      // No tag of that name: no link (ids start at 1).
      const tagId = tag?.id ?? 0;
      q = q.where('links.id', 'in', (eb) =>
        eb.selectFrom('link_tags').select('link_tags.link_id').where('link_tags.tag_id', '=', tagId),
      );
    }
    if (filter.health !== undefined) {
      const health = filter.health;
      // A row counts while it is of the link's url (docs/design/health.md); unknown: no such row.
      q = q.where((eb) => {
        const checked = eb
          .selectFrom('link_health')
          .select('link_health.link_id')
          .whereRef('link_health.link_id', '=', 'links.id')
          .whereRef('link_health.url', '=', 'links.url')
          .where('link_health.status', 'in', health === 'unknown' ? ['ok', 'broken'] : [health]);
        return health === 'unknown' ? eb.not(eb.exists(checked)) : eb.exists(checked);
      });
    }
    if (filter.status === LinkStatus.Disabled) q = q.where('disabled', '=', 1);
    if (filter.status === LinkStatus.Expired) q = q.where('disabled', '=', 0).where((eb) => expired(eb, now));
    if (filter.status === LinkStatus.Active) q = q.where('disabled', '=', 0).where((eb) => eb.not(expired(eb, now)));
    return q;
  }
}
