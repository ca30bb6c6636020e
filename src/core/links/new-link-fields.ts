import { emptyTargets } from '../targeting/targeting-rules.ts';
import { TargetType } from '../targeting/target.ts';
import type { LinkFields } from './link.ts';

/** A statistics page that may be made without a password: public (0) or private (1). */
export type DefaultStatsPrivacy = 0 | 1;

/**
 * Unlike phpShort, whose statistics pages are public unless the owner says otherwise, a new
 * link's are private: ids are sequential, so a public default lets anyone walk every account's
 * links (docs/design/statistics.md; DEFAULT_STATS_PRIVACY, docs/design/settings.md).
 */
export const PRIVATE_STATS: DefaultStatsPrivacy = 1;

/** What a new link holds before its input is laid over it: shared by a create and an import. */
export function newLinkFields(
  domainId: number | null,
  spaceId: number | null,
  privacy: DefaultStatsPrivacy,
): LinkFields {
  return {
    domainId,
    spaceId,
    alias: '',
    url: '',
    title: null,
    socialCard: null,
    targetType: TargetType.None,
    targets: emptyTargets(),
    rules: null,
    iosUrl: null,
    androidUrl: null,
    trackConversions: 0,
    disabled: 0,
    privacy,
    expirationUrl: null,
    expirationClicks: null,
    endsAt: null,
    passwordHash: null,
    privacyPasswordHash: null,
  };
}
