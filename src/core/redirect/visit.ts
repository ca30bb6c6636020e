import type { Click } from '../clicks/click.ts';
import type { ClickQuota, ClickSink, Eventually, RotationCursor } from '../clicks/ports.ts';
import type { Clock } from '../shared/clock.ts';
import type { ClickStamp, ClickStamper } from '../stats/click-stamp.ts';
import { mergeQuery } from './merge-query.ts';
import { hasQrMark, withoutQrMark } from './qr-mark.ts';
import { withClickId } from '../conversions/click-id-param.ts';
import type { ClickIds } from '../conversions/click-id.ts';
import type { RuleDecision } from '../rules/rule-targets.ts';
import { RULE_COOKIE_DAYS, ruleCookieName } from '../rules/rule-cookie.ts';
import type { RedirectLink } from './redirect-link.ts';
import { resolveVisit, type VisitContext, type VisitOutcome } from './resolve-visit.ts';
import type { Visitor } from './visitor.ts';

/** What a visit goes through besides the link: handed in by the composition root. */
export interface VisitPorts {
  quota: ClickQuota;
  rotation: RotationCursor;
  sink: ClickSink;
  stamper: Pick<ClickStamper, 'stamp'>;
  clock: Clock;
  /** Signs the click ids of links that track conversions (docs/design/rules.md); none: no ids. */
  clickIds?: Pick<ClickIds, 'issue'>;
  /** A split's draw for a new visitor; Math.random unless a test seeds it. */
  random?: () => number;
}

/** What a visit needs of its request, whichever server read it. */
export interface VisitRequest {
  method: string;
  /** The query string without its "?", or ''. */
  query: string;
  /** The client address (TRUST_PROXY applied): hashed into the visitor of the day, never kept. */
  address: string;
  userAgent: string;
  /** The link's visitor cookie, read only for links whose rules use it (rules.usesCookie). */
  ruleCookie?: string | undefined;
  /** Set by visit() when it took a QR code's `qr=1` out of `query` (qr-mark.ts). */
  qr?: boolean;
}

/** What the visitor has shown of themselves besides the request: an unlock, a consent answer. */
export type VisitAccess = Omit<VisitContext, 'now'>;

export type VisitResult =
  | Exclude<VisitOutcome, { kind: 'proceed' }>
  /** On to `destination` (the visit's query merged in), through a page firing `pixels` if any. */
  | {
      kind: 'go';
      destination: string;
      pixels: RedirectLink['pixels'];
      cookie?: RuleCookie;
      /** destination is an app's custom scheme: the web URL to fall back to (docs/design/rules.md). */
      fallback?: string;
    };

/** A first-party cookie to set with the answer: the link's rules remember a visitor (docs/design/rules.md). */
export interface RuleCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

type Proceed = Extract<VisitOutcome, { kind: 'proceed' }>;

/**
 * A visit of a link that exists, api.md §7 steps 2–8: what to answer, with the click recorded and
 * the cap and rotation turned where the visit counts. HEAD asks what is there without visiting:
 * no click, no claim on a cap, no turn of the rotation; bots neither claim nor turn, but once
 * people have used a cap up they are told so too.
 *
 * Synchronous when the quota and rotation answer at once (in memory): the fast path relies on it.
 */
export function visit(
  ports: VisitPorts,
  link: RedirectLink,
  visitor: Visitor,
  request: VisitRequest,
  access: VisitAccess,
): Eventually<VisitResult> {
  // A scan of a QR code: counted as one, and the mark never reaches the rules or the destination.
  if (request.query !== '' && hasQrMark(request.query))
    request = { ...request, query: withoutQrMark(request.query), qr: true };
  const ctx: VisitContext = {
    now: ports.clock.now(),
    unlocked: access.unlocked,
    consent: access.consent,
    consentMode: access.consentMode,
  };
  // phpShort's lists read the visitor alone: their visits build no inputs.
  if (!link.rules.phpShort)
    ctx.rules = {
      query: request.query,
      address: request.address,
      cookie: request.ruleCookie,
      random: ports.random ?? Math.random,
    };
  const outcome = resolveVisit(link, visitor, ctx);
  if (outcome.kind !== 'proceed') return outcome;
  if (outcome.cap === null) return choose(ports, link, visitor, request, outcome);
  const counts = request.method !== 'HEAD' && !visitor.isBot;
  const open = counts
    ? ports.quota.claim(link.id, outcome.cap, link.clicks)
    : notExhausted(ports.quota.exhausted(link.id, outcome.cap, link.clicks));
  return open instanceof Promise
    ? open.then((o) => (o ? choose(ports, link, visitor, request, outcome) : expired(link)))
    : open
      ? choose(ports, link, visitor, request, outcome)
      : expired(link);
}

function notExhausted(used: Eventually<boolean>): Eventually<boolean> {
  return used instanceof Promise ? used.then((u) => !u) : !used;
}

function expired(link: RedirectLink): VisitResult {
  return { kind: 'expired', expirationUrl: link.expirationUrl };
}

function choose(
  ports: VisitPorts,
  link: RedirectLink,
  visitor: Visitor,
  request: VisitRequest,
  outcome: Proceed,
): Eventually<VisitResult> {
  const { destination } = outcome;
  if (destination.kind === 'fixed') {
    const result = go(ports, link, visitor, request, outcome, destination.url, undefined, destination.decision);
    if (destination.fallback !== undefined) result.fallback = mergeQuery(destination.fallback, request.query);
    const value = destination.decision?.cookie ?? null;
    // Only people are remembered: a HEAD or a bot draws, but keeps nothing.
    if (value !== null && request.method !== 'HEAD' && !visitor.isBot)
      result.cookie = { name: ruleCookieName(link.id), value, maxAgeSeconds: RULE_COOKIE_DAYS * 86_400 };
    return result;
  }
  const { entries } = destination;
  // Only human visits turn the rotation: it splits people between the entries, and bots in
  // between (link unfurlers, crawlers) would otherwise skew who is sent where.
  if (request.method === 'HEAD' || visitor.isBot)
    return go(ports, link, visitor, request, outcome, entries[(link.lastRotation + 1) % entries.length]!, undefined);
  const position = ports.rotation.next(link.id, entries.length, link.lastRotation);
  return position instanceof Promise
    ? position.then((p) => go(ports, link, visitor, request, outcome, entries[p]!, p))
    : go(ports, link, visitor, request, outcome, entries[position]!, position);
}

function go(
  ports: VisitPorts,
  link: RedirectLink,
  visitor: Visitor,
  request: VisitRequest,
  outcome: Proceed,
  to: string,
  rotation: number | undefined,
  decision?: RuleDecision,
): Extract<VisitResult, { kind: 'go' }> {
  if (request.method === 'HEAD')
    return { kind: 'go', destination: mergeQuery(to, request.query), pixels: outcome.pixels };
  const at = ports.clock.now();
  const stamp = ports.stamper.stamp({
    linkId: link.id,
    at,
    timeZone: link.timezone,
    address: request.address,
    userAgent: request.userAgent,
    isBot: visitor.isBot,
  });
  const rule = decision?.rule ?? null;
  const variant = decision?.variant ?? null;
  ports.sink.record(clickOf(link, visitor, at, stamp, rule, variant, request.qr === true), rotation);
  // The id is signed here and kept nowhere: a conversion brings it back (docs/design/rules.md).
  const query =
    link.trackConversions && ports.clickIds
      ? withClickId(request.query, ports.clickIds.issue({ linkId: link.id, at, rule, variant }))
      : request.query;
  return { kind: 'go', destination: mergeQuery(to, query), pixels: outcome.pixels };
}

// Every field named, in Click's order, so that every click is built at once in one shape; a
// spread of the stamp would add its properties one by one on every visit (docs/performance.md).
function clickOf(
  link: RedirectLink,
  visitor: Visitor,
  at: number,
  stamp: ClickStamp,
  rule: number | null,
  variant: number | null,
  qr: boolean,
): Click {
  return {
    linkId: link.id,
    accountId: link.accountId,
    at,
    day: stamp.day,
    hour: stamp.hour,
    visitor: stamp.visitor,
    country: visitor.country,
    city: null,
    browser: visitor.browser,
    platform: visitor.platform,
    device: visitor.device,
    language: visitor.languages[0] ?? null,
    referrerHost: visitor.referrerHost,
    isBot: visitor.isBot,
    rule,
    variant,
    qr,
  };
}
