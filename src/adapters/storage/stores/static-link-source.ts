import type { Kysely } from 'kysely';
import type { HostedStaticLink, StaticLinkSource } from '../../../core/links/static-links.ts';
import type { Database } from '../schema.ts';
import { pixelIdsOf, toLink } from './link-rows.ts';

/**
 * Every workspace's links by id, a page at a time, with their domain's name and state and their
 * workspace's suspension (`linkpix export-static`). The export needs no click counts: none are read.
 */
export class SqlStaticLinkSource implements StaticLinkSource {
  constructor(private readonly db: Kysely<Database>) {}

  async linksAfter(afterId: number, limit: number): Promise<HostedStaticLink[]> {
    const rows = await this.db
      .selectFrom('links')
      .innerJoin('accounts', 'accounts.id', 'links.account_id')
      .leftJoin('domains', 'domains.id', 'links.domain_id')
      .selectAll('links')
      .select(['domains.name as domain_name', 'domains.verified_at as domain_verified_at', 'accounts.suspended_at'])
      .where('links.id', '>', afterId)
      .orderBy('links.id')
      .limit(limit)
      .execute();
    const pixels = await pixelIdsOf(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map(({ domain_name, domain_verified_at, suspended_at, ...row }) => ({
      link: toLink({ ...row, pending_clicks: null, pending_rotation: null }, pixels.get(row.id) ?? []),
      domain: domain_name,
      domainVerified: row.domain_id === null || domain_verified_at !== null,
      suspended: suspended_at !== null,
    }));
  }
}
