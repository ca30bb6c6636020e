import type { ExpressionBuilder, Kysely } from 'kysely';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { PixelType } from '../../../core/pixels/pixel.ts';
import type { RedirectLink } from '../../../core/redirect/redirect-link.ts';
import type { SnapshotLink } from '../../../core/redirect/redirect-snapshot.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { compileLinkRules } from '../../../core/rules/compile-targeting.ts';
import { resolveCard } from '../../../core/links/social-card.ts';
import { unsettledCounts, toLink, type LinkRow } from './link-rows.ts';

type Pixel = { type: string; value: string };

/**
 * The redirect's read of links, in one statement: each link with its owner's zone and suspension,
 * its pixels aggregated as JSON (the one dialect difference here: PostgreSQL's json_agg arrives
 * parsed, SQLite's json_group_array as text) and its domain's name (null: the app's own host).
 */
export function selectRedirectLinks(db: Kysely<Database>, engine: Engine) {
  const jsonArrayFrom = engine === 'postgres' ? pgJsonArrayFrom : sqliteJsonArrayFrom;
  return (
    db
      .selectFrom('links')
      .innerJoin('accounts', 'accounts.id', 'links.account_id')
      .leftJoin('domains', 'domains.id', 'links.domain_id')
      .selectAll('links')
      .select(unsettledCounts)
      // A suspended owner's links answer as disabled (the operators' suspension, issue 16).
      .select([
        'accounts.timezone',
        'accounts.suspended_at',
        'domains.name as domain_name',
        'domains.verified_at as domain_verified_at',
      ])
      .select((eb: ExpressionBuilder<Database, 'links'>) =>
        jsonArrayFrom(
          eb
            .selectFrom('link_pixels')
            .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
            .select(['pixels.type', 'pixels.value'])
            .whereRef('link_pixels.link_id', '=', 'links.id')
            .orderBy('pixels.id'),
        ).as('pixels'),
      )
  );
}

export type RedirectLinkRow = LinkRow & {
  timezone: string;
  suspended_at: number | null;
  domain_name: string | null;
  domain_verified_at: number | null;
  pixels: Pixel[] | string;
};

export function toRedirectLink(row: RedirectLinkRow): RedirectLink {
  const { ruleSource, ...rest } = toSnapshotLink(row);
  // Compiled here, once per read (its rules, or its phpShort list's): the cache keeps this
  // object, so visits never interpret rules.
  return { ...rest, rules: compileLinkRules(ruleSource) };
}

/** The link as the redirect snapshot keeps it: its rules as written (docs/design/snapshot.md). */
export function toSnapshotLink(row: RedirectLinkRow): SnapshotLink {
  const link = toLink(row, []);
  const pixels = (typeof row.pixels === 'string' ? JSON.parse(row.pixels) : row.pixels) as Pixel[];
  return {
    id: link.id,
    accountId: link.accountId,
    domainId: link.domainId,
    alias: link.alias,
    url: link.url,
    title: link.title,
    card: link.passwordHash === null ? resolveCard(link.socialCard, link.title, link.pageCard) : null,
    ruleSource: { rules: link.rules, targetType: link.targetType, targets: link.targets },
    iosUrl: link.iosUrl,
    androidUrl: link.androidUrl,
    trackConversions: link.trackConversions === 1,
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
