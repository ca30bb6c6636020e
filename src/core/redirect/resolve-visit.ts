import type { RuleFacts } from '../rules/rule-facts.ts';
import type { RuleDecision } from '../rules/rule-targets.ts';
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
  /** What rules read besides the visitor (only a link's own rules read them; phpShort's lists do not). */
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
 * visitor reaches through a page that opens the app first (docs/design/rules.md).
 */
export interface FixedDestination {
  kind: 'fixed';
  url: string;
  /** Which rule decided, for a link with rules of its own (none for phpShort's lists). */
  decision?: RuleDecision;
  fallback?: string;
}

/** A rotation's entries are taken in turn by the caller (visit.ts), whose counter is atomic. */
type VisitDestination = FixedDestination | { kind: 'rotate'; entries: readonly string[] };

export type VisitOutcome =
  | { kind: 'disabled' }
  | { kind: 'expired'; expirationUrl: string | null }
  | { kind: 'locked' }
  | { kind: 'ask-consent' }
  | {
      kind: 'proceed';
      destination: VisitDestination;
      /** Pixels to fire on the way; empty means a plain HTTP redirect. */
      pixels: RedirectLink['pixels'];
      /** A click cap to claim before going on, or null. */
      cap: number | null;
    };

// Most visits fire no pixel: one empty list for all of them rather than one a visit (never written to).
const NO_PIXELS: RedirectLink['pixels'] = [];

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
      : NO_PIXELS;
  const destination = decide(link, visitor, ctx);
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
      ? appLinkFor(visitor.platform, link.rules.rules[rule]!.ios_url, link.rules.rules[rule]!.android_url)
      : destination.url === link.url
        ? appLinkFor(visitor.platform, link.iosUrl, link.androidUrl)
        : null;
  if (app === null) return destination;
  return isCustomScheme(app) ? { ...destination, url: app, fallback: destination.url } : { ...destination, url: app };
}

/**
 * One facts object for every visit: the decision is synchronous and keeps nothing of it, so a
 * visit allocates none (docs/design/rules.md, "compiled once").
 */
const FACTS: RuleFacts = {
  visitor: { country: null, platform: null, languages: [], browser: null, device: null, referrerHost: null },
  query: '',
  address: '',
  now: 0,
  clicks: 0,
  cookie: undefined,
};

/** The one decider: the link's compiled rules, its own or its phpShort list's. */
function decide(link: RedirectLink, visitor: Visitor, ctx: VisitContext): VisitDestination {
  const inputs = ctx.rules ?? NO_INPUTS;
  FACTS.visitor = visitor;
  FACTS.query = inputs.query;
  FACTS.address = inputs.address;
  FACTS.now = ctx.now;
  FACTS.clicks = link.clicks;
  FACTS.cookie = inputs.cookie;
  const decision = link.rules.decide(FACTS, inputs.random);
  if (decision.rotation !== undefined) return { kind: 'rotate', entries: decision.rotation };
  const url = decision.url ?? link.url;
  return link.rules.phpShort ? { kind: 'fixed', url } : { kind: 'fixed', url, decision };
}
