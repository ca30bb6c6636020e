import type { RedirectLink } from '../../src/core/redirect/redirect-link.ts';

/** A plain, enabled default-domain link as the redirect reads it, and `fields` over that. */
export function aRedirectLink(fields: Partial<RedirectLink> = {}): RedirectLink {
  return {
    id: 1,
    accountId: 10,
    domainId: null,
    alias: 'hello',
    url: 'https://example.com/',
    title: null,
    targetType: 0,
    targets: { country: null, platform: null, language: null, rotation: null },
    rules: null,
    iosUrl: null,
    androidUrl: null,
    trackConversions: false,
    lastRotation: 0,
    disabled: false,
    passwordHash: null,
    expirationUrl: null,
    expirationClicks: null,
    endsAt: null,
    clicks: 0,
    pixels: [],
    timezone: 'UTC',
    ...fields,
  };
}
