import { chooseDestination } from '../targeting/choose-destination.ts';
import { isExpired } from '../expiration/expiry.ts';
import type { RedirectLink } from './redirect-link.ts';
import type { Visitor } from './visitor.ts';

export type ConsentMode = 'ask' | 'implied' | 'never';

export interface VisitContext {
  now: number;
  /** The visitor holds a valid unlock cookie for this link's password. */
  unlocked: boolean;
  /** The visitor's remembered answer about tracking pixels, if any. */
  consent: 'yes' | 'no' | null;
  consentMode: ConsentMode;
}

export type VisitOutcome =
  | { kind: 'disabled' }
  | { kind: 'expired'; expirationUrl: string | null }
  | { kind: 'locked' }
  | { kind: 'ask-consent' }
  | {
      kind: 'proceed';
      destination: { kind: 'fixed'; url: string } | { kind: 'rotate'; entries: string[] };
      /** Pixels to fire on the way; empty means a plain HTTP redirect. */
      pixels: RedirectLink['pixels'];
      /** A click cap to claim before going on, or null. */
      cap: number | null;
    };

/** api.md §7 steps 2–6, in order, as a pure function of (link, visitor, context). */
export function resolveVisit(link: RedirectLink, visitor: Visitor, ctx: VisitContext): VisitOutcome {
  if (link.disabled) return { kind: 'disabled' };
  if (isExpired(link, ctx.now)) return { kind: 'expired', expirationUrl: link.expirationUrl };
  const cap = link.expirationClicks !== null && link.expirationClicks > 0 ? link.expirationClicks : null;
  if (link.passwordHash !== null && !ctx.unlocked) return { kind: 'locked' };
  const wantsPixels = link.pixels.length > 0 && !visitor.isBot && !visitor.refusesTracking && ctx.consentMode !== 'never';
  if (wantsPixels && ctx.consentMode === 'ask' && ctx.consent === null) return { kind: 'ask-consent' };
  // `implied` skips the question, not an answer: a remembered (or just posted) "no" still counts.
  const pixels = wantsPixels && (ctx.consent === 'yes' || (ctx.consentMode === 'implied' && ctx.consent !== 'no')) ? link.pixels : [];
  return { kind: 'proceed', destination: chooseDestination(link, visitor), pixels, cap };
}
