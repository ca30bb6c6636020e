import type { LinkView } from '../../../core/links/link.ts';
import { phpShortRules } from '../../../core/rules/phpshort-rules.ts';
import { UNKNOWN_HEALTH, type LinkHealth } from '../../../core/health/health.ts';
import { domainRecord, iso, isoOrNull, pixelRecord, spaceRecord } from './records.ts';

export interface ShortUrlOptions {
  /** APP_URL, without a trailing slash. */
  appUrl: string;
  /** Scheme of custom domains. */
  domainScheme: 'http' | 'https';
}

export function shortUrl(view: Pick<LinkView, 'link' | 'domain'>, opts: ShortUrlOptions): string {
  const base = view.domain ? `${opts.domainScheme}://${view.domain.name}` : opts.appUrl;
  return `${base}/${view.link.alias}`;
}

export function linkRecord(view: LinkView, opts: ShortUrlOptions) {
  const { link } = view;
  return {
    id: link.id,
    alias: link.alias,
    url: link.url,
    short_url: shortUrl(view, opts),
    title: link.title,
    social_card: link.socialCard,
    page_card: link.pageCard,
    target_type: link.targetType,
    country_target: link.targets.country,
    platform_target: link.targets.platform,
    language_target: link.targets.language,
    rotation_target: link.targets.rotation,
    rules: link.rules ?? phpShortRules(link.targetType, link.targets),
    ios_url: link.iosUrl,
    android_url: link.androidUrl,
    track_conversions: link.trackConversions,
    last_rotation: link.lastRotation,
    disabled: link.disabled,
    privacy: link.privacy,
    privacy_password: link.privacyPasswordHash !== null,
    password: link.passwordHash !== null,
    expiration_url: link.expirationUrl,
    expiration_clicks: link.expirationClicks,
    clicks: link.clicks,
    space: view.space ? spaceRecord(view.space) : null,
    domain: view.domain ? domainRecord(view.domain) : null,
    pixels: view.pixels.map(pixelRecord),
    tags: view.tags.map((t) => t.name),
    health: healthRecord(view.health ?? UNKNOWN_HEALTH),
    ends_at: isoOrNull(link.endsAt),
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
  };
}

/** A link's destination health as the API shows it (docs/api.md §5, docs/design/health.md). */
function healthRecord(health: LinkHealth) {
  return {
    status: health.status,
    code: health.code,
    reason: health.reason,
    checked_at: isoOrNull(health.checkedAt),
    broken_since: isoOrNull(health.brokenSince),
  };
}
