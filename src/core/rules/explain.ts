import { mergeQuery } from '../redirect/merge-query.ts';
import type { RedirectLink } from '../redirect/redirect-link.ts';
import { resolveVisit, type ConsentMode, type VisitContext, type VisitOutcome } from '../redirect/resolve-visit.ts';
import type { Visitor } from '../redirect/visitor.ts';
import { epochMsToZonedParts } from '../expiration/ends-at.ts';
import { WEEKDAYS, type ConditionName } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';

/** A visitor to explain: what a request would carry, each part possibly unknown (empty). */
export interface ExplainProbe {
  visitor: Visitor;
  /** The visit's query string without "?", or ''. */
  query: string;
  /** The client address, or '' when unknown. */
  address: string;
  at: number;
  /** The link's visitor cookie (rule-cookie.ts): undefined for a first visit. */
  cookie: string | undefined;
}

export type ExplainOutcome = 'redirect' | 'password' | 'expired' | 'disabled' | 'pixels';

export interface ExplainedCondition {
  condition: ConditionName | 'not';
  matched: boolean;
  /** What the visitor showed of this condition (null: unknown). */
  value: unknown;
}

export interface ExplainedRule {
  rule: number;
  name: string | null;
  matched: boolean;
  conditions: ExplainedCondition[];
}

export interface Explanation {
  outcome: ExplainOutcome;
  /** Where the visitor ends up (the visit's query merged in), or where a password or expiry leads; null: nowhere. */
  url: string | null;
  /** The deciding rule's index, null when none decided (the link's url, or phpShort targeting). */
  rule: number | null;
  variant: number | null;
  /** Each rule up to the deciding one, each condition's answer and the value it read. */
  trace: ExplainedRule[];
  /** Whether tracking pixels fire on the way (their ids are the caller's to name). */
  firesPixels: boolean;
  /** Whether the visit would add a human click to the link's count and statistics. */
  countsClick: boolean;
}

export interface ExplainOptions {
  consentMode: ConsentMode;
  /** A split's draw; the redirect's own Math.random unless a test seeds it. */
  random: () => number;
}

/**
 * What a visit of `link` would meet, computed by the redirect's own decision (resolveVisit, the
 * same compiled rules) without recording anything. A password-protected link is explained as
 * the visitor meets it (the password page) and, behind it, where the unlocked visit goes; the
 * visitor is assumed to accept pixels when asked, so `pixels` shows what consent would fire.
 */
export function explainVisit(link: RedirectLink, probe: ExplainProbe, options: ExplainOptions): Explanation {
  const ctx: VisitContext = {
    now: probe.at,
    unlocked: false,
    consent: 'yes',
    consentMode: options.consentMode,
    rules: { query: probe.query, address: probe.address, cookie: probe.cookie, random: options.random },
  };
  let outcome = resolveVisit(link, probe.visitor, ctx);
  const locked = outcome.kind === 'locked';
  if (locked) outcome = resolveVisit(link, probe.visitor, { ...ctx, unlocked: true });
  const trace = traceOf(link, probe);
  const base = { rule: null, variant: null, trace, firesPixels: false, countsClick: false };
  if (outcome.kind === 'disabled') return { ...base, outcome: 'disabled', url: null };
  if (outcome.kind === 'expired') return { ...base, outcome: 'expired', url: outcome.expirationUrl };
  return proceed(link, probe, outcome as Extract<VisitOutcome, { kind: 'proceed' }>, locked, trace);
}

function proceed(
  link: RedirectLink,
  probe: ExplainProbe,
  outcome: Extract<VisitOutcome, { kind: 'proceed' }>,
  locked: boolean,
  trace: ExplainedRule[],
): Explanation {
  const { destination } = outcome;
  const decision = destination.kind === 'fixed' ? destination.decision : undefined;
  // A rotation's next visitor gets the entry after the last one served (visit.ts turns it).
  const to =
    destination.kind === 'fixed'
      ? destination.url
      : destination.entries[(link.lastRotation + 1) % destination.entries.length]!;
  const rule = decision?.rule ?? null;
  const variant = decision?.variant ?? null;
  const firesPixels = outcome.pixels.length > 0;
  return {
    outcome: locked ? 'password' : firesPixels ? 'pixels' : 'redirect',
    url: mergeQuery(to, probe.query),
    rule,
    variant,
    trace,
    firesPixels: firesPixels && !locked,
    countsClick: !locked && !probe.visitor.isBot,
  };
}

/** Empty for phpShort's lists, which name no rule. */
function traceOf(link: RedirectLink, probe: ExplainProbe): ExplainedRule[] {
  const facts: RuleFacts = {
    visitor: probe.visitor,
    query: probe.query,
    address: probe.address,
    now: probe.at,
    clicks: link.clicks,
    cookie: probe.cookie,
  };
  const rules = link.rules.rules;
  return link.rules.trace(facts).map((step) => ({
    rule: step.rule,
    name: rules[step.rule]?.name ?? null,
    matched: step.matched,
    conditions: step.conditions.map((c) => ({
      condition: c.condition as ExplainedCondition['condition'],
      matched: c.matched,
      value: valueOf(c.condition as ExplainedCondition['condition'], facts, rules[step.rule]?.when.time?.tz),
    })),
  }));
}

/** What a condition read of the visit, as an owner would want to see it beside its answer. */
function valueOf(condition: ExplainedCondition['condition'], facts: RuleFacts, tz: string | undefined): unknown {
  const v = facts.visitor;
  switch (condition) {
    case 'country':
      return v.country;
    case 'os':
      return v.platform;
    case 'browser':
      return v.browser;
    case 'device':
      return v.device;
    case 'language':
      return v.languages;
    case 'referrer':
      return v.referrerHost ?? 'none';
    case 'query':
      return facts.query === '' ? null : facts.query;
    case 'time':
      return localTime(facts.now, tz ?? 'UTC');
    case 'date':
      return new Date(facts.now).toISOString();
    case 'visits':
      return facts.clicks;
    case 'ip':
      return facts.address === '' ? null : facts.address;
    case 'returning':
      return facts.cookie !== undefined;
    case 'not':
      return null;
  }
}

/** "fri 11:00 Europe/Berlin": the instant as a time window reads it. */
function localTime(at: number, tz: string): string {
  const { date, time } = epochMsToZonedParts(at, tz);
  const day = WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
  return `${day} ${time} ${tz}`;
}
