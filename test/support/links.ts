import type { Link } from '../../src/core/links/link.ts';
import { emptyTargets } from '../../src/core/targeting/targeting-rules.ts';

/** A plain, enabled default-domain link as the store reads it back, and `fields` over that. */
export function aLink(fields: Partial<Link> = {}): Link {
  return {
    id: 1,
    accountId: 1,
    domainId: null,
    spaceId: null,
    alias: 'Abc',
    url: 'https://example.com/',
    title: null,
    socialCard: null,
    pageCard: null,
    targetType: 0,
    targets: emptyTargets(),
    rules: null,
    iosUrl: null,
    androidUrl: null,
    trackConversions: 0,
    lastRotation: 0,
    disabled: 0,
    blockedAt: null,
    privacy: 0,
    privacyPasswordHash: null,
    passwordHash: null,
    expirationUrl: null,
    expirationClicks: null,
    endsAt: null,
    clicks: 0,
    pixelIds: [],
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}
