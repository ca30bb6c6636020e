import { chooseDestination } from '../targeting/choose-destination.ts';
import type { RuleDecision } from '../rules/compile-rules.ts';
import { isExpired } from '../expiration/expiry.ts';
import { appLinkFor, isCustomScheme } from '../rules/app-link.ts';
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
  /** What rules read besides the visitor (only links with rules read them). */
  rules?: RuleInputs;
}

/** The request's parts that rules read, and the draw of a split. */
export interface RuleInputs {
  query: string;
  address: string;
  /** The link's visitor cookie (core/rules/rule-cookie.ts), undefined when absent or not read. */
  cookie: string | undefined;
  random: () => number;
}

const NO_INPUTS: RuleInputs = { query: '', address: '', cookie: undefined, random: Math.random };

/**
 * One destination. fallback: the web URL behind an app link with a custom scheme, which the
 * visitor reaches through a page that opens the app first (docs/adr/0067).
 */
export interface FixedDestination {
  kind: 'fixed';
  url: string;
  /** Which rule decided, for a link with rules. */
  decision?: RuleDecision;
  fallback?: string;
}

export type VisitOutcome =
  | { kind: 'disabled' }
  | { kind: 'expired'; expirationUrl: string | null }
  | { kind: 'locked' }
  | { kind: 'ask-consent' }
  | {
      kind: 'proceed';
      /** decision: which rule decided, for a link with rules. */
      destination: FixedDestination | { kind: 'rotate'; entries: string[] };
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
  const wantsPixels =
    link.pixels.length > 0 && !visitor.isBot && !visitor.refusesTracking && ctx.consentMode !== 'never';
  if (wantsPixels && ctx.consentMode === 'ask' && ctx.consent === null) return { kind: 'ask-consent' };
  // `implied` skips the question, not an answer: a remembered (or just posted) "no" still counts.
  const pixels =
    wantsPixels && (ctx.consent === 'yes' || (ctx.consentMode === 'implied' && ctx.consent !== 'no'))
      ? link.pixels
      : [];
  const destination = link.rules === null ? chooseDestination(link, visitor) : decide(link, visitor, ctx);
  return {
    kind: 'proceed',
    destination: destination.kind === 'fixed' ? toApp(link, visitor, destination) : destination,
    pixels,
    cap,
  };
}

/**
 * A visitor on iOS or Android goes to the app link of whatever sent them: the deciding rule's,
 * or the link's own when its url is where they were going (a phpShort target that chose another
 * URL has no app link of its own).
 */
function toApp(link: RedirectLink, visitor: Visitor, destination: FixedDestination): FixedDestination {
  if (visitor.platform !== 'iOS' && visitor.platform !== 'Android') return destination;
  const rule = destination.decision?.rule ?? null;
  const app =
    rule !== null
      ? appLinkFor(visitor.platform, link.rules!.rules[rule]!.ios_url, link.rules!.rules[rule]!.android_url)
      : destination.url === link.url
        ? appLinkFor(visitor.platform, link.iosUrl, link.androidUrl)
        : null;
  if (app === null) return destination;
  return isCustomScheme(app) ? { ...destination, url: app, fallback: destination.url } : { ...destination, url: app };
}

function decide(link: RedirectLink, visitor: Visitor, ctx: VisitContext): FixedDestination {
  const inputs = ctx.rules ?? NO_INPUTS;
  const decision = link.rules!.decide(
    { visitor, query: inputs.query, address: inputs.address, now: ctx.now, clicks: link.clicks, cookie: inputs.cookie },
    inputs.random,
  );
  return { kind: 'fixed' as const, url: decision.url ?? link.url, decision };
}
