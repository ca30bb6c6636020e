import type { Kysely } from 'kysely';
import type {
  DomainNameSource,
  HostedLink,
  MostVisitedSource,
  RedirectDomain,
  RedirectLink,
  RedirectLinkSource,
} from '../../../core/redirect/redirect-link.ts';
import type { SnapshotDomain, SnapshotRow, SnapshotSource } from '../../../core/redirect/redirect-snapshot.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { selectRedirectLinks, toRedirectLink, toSnapshotLink, type RedirectLinkRow } from './redirect-link-rows.ts';
import {
  checkAppleAppSiteAssociation,
  checkAssetLinks,
  servedAppSiteFile,
} from '../../../core/domains/app-site-files.ts';

/** How far back the warm-up ranks links by their clicks: local days, so a day either side of UTC's. */
const RECENT_DAYS = 2;
const DAY_MS = 86_400_000;

/**
 * The redirect's reads: a link is one statement (its owner, its pixels and its domain with it),
 * so a cache miss costs one round trip to the database.
 */
export class SqlRedirectLinkSource implements RedirectLinkSource, DomainNameSource, MostVisitedSource, SnapshotSource {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly appHosts: ReadonlySet<string>,
    private readonly engine: Engine,
  ) {}

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    let query = selectRedirectLinks(this.db, this.engine).where('links.alias_key', '=', alias.toLowerCase());
    // A pending claim is not a domain yet: only a verified one's name finds its links.
    query = this.appHosts.has(host)
      ? query.where('links.domain_id', 'is', null)
      : query.where('domains.name', '=', host).where('domains.verified_at', 'is not', null);
    const row = await query.executeTakeFirst();
    return row ? toRedirectLink(row) : null;
  }

  async domain(host: string) {
    if (this.appHosts.has(host)) return null;
    const row = await this.domains()
      // A pending claim is not a domain yet: its host is served as any unknown host is.
      .where('name', '=', host)
      .executeTakeFirst();
    return row ? toRedirectDomain(row) : null;
  }

  /** The enabled links of a live owner, a page in id order: what the redirect snapshot keeps. */
  async snapshotPage(afterId: number, limit: number): Promise<SnapshotRow[]> {
    const rows = (await selectRedirectLinks(this.db, this.engine)
      .where('links.id', '>', afterId)
      .where('links.disabled', '=', 0)
      .where('accounts.suspended_at', 'is', null)
      .where((eb) => eb.or([eb('links.domain_id', 'is', null), eb('domains.verified_at', 'is not', null)]))
      .orderBy('links.id')
      .limit(limit)
      .execute()) as RedirectLinkRow[];
    return rows.map((row) => ({ host: row.domain_name, link: toSnapshotLink(row) }));
  }

  async snapshotDomains(): Promise<SnapshotDomain[]> {
    const rows = await this.domains().orderBy('id').execute();
    return rows.map((row) => ({ name: row.name, ...toRedirectDomain(row) }));
  }

  private domains() {
    return this.db
      .selectFrom('domains')
      .select(['id', 'name', 'account_id', 'index_page', 'not_found_page', 'apple_app_site_association', 'assetlinks'])
      .where('verified_at', 'is not', null);
  }

  /**
   * The names of the verified domains: the cache keys every other host as the app's. Pending
   * claims, which anyone can make, serve nothing and so get no keys of their own.
   */
  async domainNames(): Promise<string[]> {
    const rows = await this.db.selectFrom('domains').select('name').where('verified_at', 'is not', null).execute();
    return rows.map((r) => r.name);
  }

  /**
   * The verified names that may have a certificate (GET /tls/allowed): a suspended workspace's
   * and a reserved name (one reserved after it was verified keeps serving) are left out.
   */
  async certifiableNames(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('domains')
      .innerJoin('accounts', 'accounts.id', 'domains.account_id')
      .select('domains.name')
      .where('domains.verified_at', 'is not', null)
      .where('accounts.suspended_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('reserved_domains')
              .select('reserved_domains.name')
              .whereRef('reserved_domains.name', '=', 'domains.name'),
          ),
        ),
      )
      .execute();
    return rows.map((r) => r.name);
  }

  /**
   * The links with the most clicks over the last days, most first: the statistics' daily totals
   * (one index range, click_rollups_total_day), never the click rows.
   */
  async mostVisited(limit: number, now: number): Promise<number[]> {
    const since = new Date(now - RECENT_DAYS * DAY_MS).toISOString().slice(0, 10);
    const rows = await this.db
      .selectFrom('click_rollups')
      .select('link_id')
      .where('dimension', '=', 'total')
      .where('day', '>=', since)
      .groupBy('link_id')
      .orderBy((eb) => eb.fn.sum('count'), 'desc')
      .orderBy('link_id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.link_id);
  }

  /** These links, each with its domain's name (null: the app's host); a pending domain's are left out. */
  async byIds(ids: readonly number[]): Promise<HostedLink[]> {
    if (ids.length === 0) return [];
    const rows = (await selectRedirectLinks(this.db, this.engine)
      .where('links.id', 'in', ids)
      .where((eb) => eb.or([eb('links.domain_id', 'is', null), eb('domains.verified_at', 'is not', null)]))
      .execute()) as RedirectLinkRow[];
    return rows.map((row) => ({ host: row.domain_name, link: toRedirectLink(row) }));
  }
}

type DomainRow = {
  id: number;
  account_id: number;
  index_page: string | null;
  not_found_page: string | null;
  apple_app_site_association?: string | null;
  assetlinks?: string | null;
};

function toRedirectDomain(row: DomainRow): RedirectDomain {
  return {
    id: row.id,
    accountId: row.account_id,
    indexPage: row.index_page,
    notFoundPage: row.not_found_page,
    // Served checked and normalised, those saved before unknown keys were dropped too (docs/api.md §6).
    appleAppSiteAssociation: servedAppSiteFile(row.apple_app_site_association ?? null, checkAppleAppSiteAssociation),
    assetLinks: servedAppSiteFile(row.assetlinks ?? null, checkAssetLinks),
  };
}
