import { emptyTargets } from '../targeting/targeting-rules.ts';
import { TargetType } from '../targeting/target.ts';
import type { LinkFields } from './link.ts';

/** What a new link holds before its input is laid over it: shared by a create and an import. */
export function newLinkFields(domainId: number | null, spaceId: number | null): LinkFields {
  return {
    domainId,
    spaceId,
    alias: '',
    url: '',
    title: null,
    targetType: TargetType.None,
    targets: emptyTargets(),
    disabled: 0,
    privacy: 0,
    expirationUrl: null,
    expirationClicks: null,
    endsAt: null,
    passwordHash: null,
    privacyPasswordHash: null,
  };
}
