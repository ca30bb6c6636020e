import { urlValuesOf } from '../../../core/analytics/workspace-stats.ts';
import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type Updateable,
} from 'kysely';
import type { Link, LinkFields } from '../../../core/links/link.ts';
import type { Rule } from '../../../core/rules/rule.ts';
import type { SocialCard } from '../../../core/links/social-card.ts';
import type { TargetType, Targets } from '../../../core/targeting/target.ts';
import type { Database, LinksTable } from '../schema.ts';

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
const parse = <T>(v: string | null): T | null => (v === null ? null : (JSON.parse(v) as T));

/** A link's row as every read selects it: the columns, and its clicks and rotation not yet settled into them. */
export type LinkRow = Selectable<LinksTable> & { pending_clicks: number | null; pending_rotation: number | null };

/**
 * What the writer has counted for the link since the last settle into its row (link_click_counts,
 * docs/design/clicks.md): its clicks since, added to `links.clicks`, and the last rotation position it
 * served since, in place of `links.last_rotation`. Every read of links selects both.
 */
export function unsettledCounts(eb: ExpressionBuilder<Database, 'links'>) {
  return [unsettledClicks(eb), unsettledOf(eb).select('link_click_counts.last_rotation').as('pending_rotation')];
}

/** The link's clicks not yet settled into `links.clicks` (see unsettledCounts). */
export function unsettledClicks(eb: ExpressionBuilder<Database, 'links'>) {
  return unsettledOf(eb).select('link_click_counts.clicks').as('pending_clicks');
}

function unsettledOf(eb: ExpressionBuilder<Database, 'links'>) {
  return eb.selectFrom('link_click_counts').whereRef('link_click_counts.link_id', '=', 'links.id');
}

export function toLink(r: LinkRow, pixelIds: number[]): Link {
  const targets: Targets = {
    country: parse(r.country_target),
    platform: parse(r.platform_target),
    language: parse(r.language_target),
    rotation: parse(r.rotation_target),
  };
  return {
    id: r.id,
    accountId: r.account_id,
    domainId: r.domain_id,
    spaceId: r.space_id,
    alias: r.alias,
    url: r.url,
    title: r.title,
    socialCard: parse<SocialCard>(r.social_card ?? null),
    pageCard: parse<SocialCard>(r.page_card ?? null),
    targetType: r.target_type as TargetType,
    targets,
    rules: parse<Rule[]>(r.rules ?? null),
    iosUrl: r.ios_url ?? null,
    androidUrl: r.android_url ?? null,
    trackConversions: r.track_conversions === 1 ? 1 : 0,
    lastRotation: r.pending_rotation ?? r.last_rotation,
    disabled: r.disabled === 1 ? 1 : 0,
    blockedAt: r.blocked_at ?? null,
    privacy: r.privacy as 0 | 1 | 2,
    privacyPasswordHash: r.privacy_password_hash,
    passwordHash: r.password_hash,
    expirationUrl: r.expiration_url,
    expirationClicks: r.expiration_clicks,
    endsAt: r.ends_at,
    clicks: r.clicks + Number(r.pending_clicks ?? 0),
    pixelIds,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Maps only the fields present, so an update touches nothing it was not asked to. */
export function toColumns(f: Partial<LinkFields>): Updateable<LinksTable> {
  const c: Updateable<LinksTable> = {};
  if (f.domainId !== undefined) c.domain_id = f.domainId;
  if (f.spaceId !== undefined) c.space_id = f.spaceId;
  if (f.alias !== undefined) {
    c.alias = f.alias;
    c.alias_key = f.alias.toLowerCase();
  }
  if (f.url !== undefined) {
    c.url = f.url;
    // What the workspace's URL breakdowns count its clicks under from now on (migration 0054).
    const v = urlValuesOf(f.url);
    c.utm_source = v.utm_source;
    c.utm_medium = v.utm_medium;
    c.utm_campaign = v.utm_campaign;
    c.destination_host = v.destinations;
  }
  if (f.title !== undefined) c.title = f.title;
  if (f.socialCard !== undefined) c.social_card = json(f.socialCard);
  if (f.targetType !== undefined) c.target_type = f.targetType;
  if (f.targets !== undefined) {
    c.country_target = json(f.targets.country);
    c.platform_target = json(f.targets.platform);
    c.language_target = json(f.targets.language);
    c.rotation_target = json(f.targets.rotation);
  }
  if (f.rules !== undefined) c.rules = json(f.rules);
  if (f.iosUrl !== undefined) c.ios_url = f.iosUrl;
  if (f.androidUrl !== undefined) c.android_url = f.androidUrl;
  if (f.trackConversions !== undefined) c.track_conversions = f.trackConversions;
  if (f.disabled !== undefined) c.disabled = f.disabled;
  if (f.privacy !== undefined) c.privacy = f.privacy;
  if (f.privacyPasswordHash !== undefined) c.privacy_password_hash = f.privacyPasswordHash;
  if (f.passwordHash !== undefined) c.password_hash = f.passwordHash;
  if (f.expirationUrl !== undefined) c.expiration_url = f.expirationUrl;
  if (f.expirationClicks !== undefined) c.expiration_clicks = f.expirationClicks;
  if (f.endsAt !== undefined) c.ends_at = f.endsAt;
  return c;
}

export function toInsert(accountId: number, f: LinkFields, now: number): Insertable<LinksTable> {
  // A link written already past its date never became expired while it lived: nothing to tell.
  const expiry_told = f.endsAt !== null && f.endsAt <= now ? 1 : 0;
  return {
    ...(toColumns(f) as Insertable<LinksTable>),
    account_id: accountId,
    expiry_told,
    created_at: now,
    updated_at: now,
  };
}

/**
 * expiry_told as an update that changes the expiry leaves it (docs/design/webhooks.md): a link it opens
 * again is told when it next expires; one it leaves expired is not told (the update is its news).
 * Undefined when the update touches neither the date nor the cap.
 */
export function expiryToldAfter(f: Partial<LinkFields>, now: number): RawBuilder<number> | undefined {
  if (f.endsAt === undefined && f.expirationClicks === undefined) return undefined;
  const byDate =
    f.endsAt === undefined
      ? sql`(ends_at is not null and ends_at <= ${now})`
      : f.endsAt !== null && f.endsAt <= now
        ? sql`1 = 1`
        : sql`1 = 0`;
  const cap = f.expirationClicks;
  const byCap =
    cap === undefined
      ? sql`(expiration_clicks is not null and expiration_clicks > 0 and clicks >= expiration_clicks)`
      : cap !== null && cap > 0
        ? sql`clicks >= ${cap}`
        : sql`1 = 0`;
  return sql<number>`case when ${byDate} or ${byCap} then 1 else 0 end`;
}

/** The pixel ids of each link, in id order: what `toLink` needs beside a row. */
export async function pixelIdsOf(db: Kysely<Database>, linkIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (linkIds.length === 0) return map;
  const rows = await db
    .selectFrom('link_pixels')
    .select(['link_id', 'pixel_id'])
    .where('link_id', 'in', linkIds)
    .orderBy('pixel_id')
    .execute();
  for (const r of rows) (map.get(r.link_id) ?? map.set(r.link_id, []).get(r.link_id)!).push(r.pixel_id);
  return map;
}
