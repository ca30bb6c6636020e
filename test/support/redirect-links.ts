import type { RedirectLink } from '../../src/core/redirect/redirect-link.ts';
import { compileTargeting } from '../../src/core/rules/compile-targeting.ts';
import { TargetType } from '../../src/core/targeting/target.ts';
import { emptyTargets } from '../../src/core/targeting/targeting-rules.ts';

/**
 * A plain, enabled default-domain link as the redirect reads it, and `fields` over that; a link
 * with rules or phpShort targeting passes them compiled (compileRules, compileTargeting).
 */
export function aRedirectLink(fields: Partial<RedirectLink> = {}): RedirectLink {
  return {
    id: 1,
    accountId: 10,
    domainId: null,
    alias: 'hello',
    url: 'https://example.com/',
    title: null,
    card: null,
    rules: compileTargeting(TargetType.None, emptyTargets()),
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
