import type { Kysely } from 'kysely';
import type { PixelType } from '../../../core/pixels/pixel.ts';
import type { DomainNameSource, RedirectLink, RedirectLinkSource } from '../../../core/redirect/redirect-link.ts';
import type { Database } from '../schema.ts';
import { toLink } from './link-rows.ts';

/**
 * The redirect's reads: one indexed lookup by alias (with its owner's zone and suspension), one
 * for the pixels when there are any.
 */
export class SqlRedirectLinkSource implements RedirectLinkSource, DomainNameSource {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly appHosts: ReadonlySet<string>,
  ) {}

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    const domain = this.appHosts.has(host) ? null : await this.domain(host);
    const row = await this.db
      .selectFrom('links')
      .innerJoin('accounts', 'accounts.id', 'links.account_id')
      .selectAll('links')
      // A suspended owner's links answer as disabled (the operators' suspension, issue 16).
      .select(['accounts.timezone', 'accounts.suspended_at'])
      .where('links.alias_key', '=', alias.toLowerCase())
      .where('links.domain_id', domain ? '=' : 'is', domain ? domain.id : null)
      .executeTakeFirst();
    if (!row) return null;
    const pixels = await this.db
      .selectFrom('link_pixels')
      .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
      .select(['pixels.type', 'pixels.value'])
      .where('link_pixels.link_id', '=', row.id)
      .orderBy('pixels.id')
      .execute();
    const link = toLink(row, []);
    return {
      id: link.id,
      accountId: link.accountId,
      domainId: link.domainId,
      alias: link.alias,
      url: link.url,
      title: link.title,
      targetType: link.targetType,
      targets: link.targets,
      lastRotation: link.lastRotation,
      disabled: link.disabled === 1 || row.suspended_at !== null,
      passwordHash: link.passwordHash,
      expirationUrl: link.expirationUrl,
      expirationClicks: link.expirationClicks,
      endsAt: link.endsAt,
      clicks: link.clicks,
      pixels: pixels.map((p) => ({ type: p.type as PixelType, value: p.value })),
      timezone: row.timezone,
    };
  }

  async domain(host: string) {
    if (this.appHosts.has(host)) return null;
    const row = await this.db
      .selectFrom('domains')
      .select(['id', 'account_id', 'index_page', 'not_found_page'])
      // A pending claim is not a domain yet: its host is served as any unknown host is.
      .where('name', '=', host)
      .where('verified_at', 'is not', null)
      .executeTakeFirst();
    return row ? { id: row.id, accountId: row.account_id, indexPage: row.index_page, notFoundPage: row.not_found_page } : null;
  }

  /**
   * The names of the verified domains: the cache keys every other host as the app's. Pending
   * claims, which anyone can make, serve nothing and so get no keys of their own.
   */
  async domainNames(): Promise<string[]> {
    const rows = await this.db.selectFrom('domains').select('name').where('verified_at', 'is not', null).execute();
    return rows.map((r) => r.name);
  }
}
