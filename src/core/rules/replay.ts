import { compileConditions } from './compile-conditions.ts';
import type { ConditionName, Conditions, Rule } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';

/**
 * What a stored click tells of its visit (the clicks table): enough for most conditions, but not
 * the query, the address, the visitor cookie or the count at the time, and only the first language.
 */
export interface ClickFacts {
  country: string | null;
  platform: string | null;
  browser: string | null;
  device: string | null;
  language: string | null;
  referrerHost: string | null;
  /** The minute of the click (epoch ms at its start), or null when the read did not group by time. */
  minute: number | null;
  /** The rule and split variant the redirect recorded (migration 0033); null: none, or not recorded. */
  rule?: number | null;
  variant?: number | null;
  /** How many clicks share these facts. */
  count: number;
}

/** Conditions a stored click cannot answer: the replay counts them as not holding. */
export const UNKNOWN_IN_CLICKS: readonly ConditionName[] = ['query', 'ip', 'returning', 'visits'];
const TIMED: readonly ConditionName[] = ['time', 'date'];

/** Where a replayed click goes: the rule that decided (null: the link's url or its rotation) and its share of each URL. */
export interface ReplayedDecision {
  rule: number | null;
  /** URL -> fraction of the click (a split shares a click by its weights; the rest send it whole). */
  urls: Array<{ url: string; share: number }>;
}

/** The condition names a rule list uses, `not` looked into. */
export function conditionsUsed(rules: readonly Rule[] | null): Set<ConditionName> {
  const out = new Set<ConditionName>();
  const add = (when: Conditions | Omit<Conditions, 'not'>) => {
    for (const [name, value] of Object.entries(when)) {
      if (value === undefined) continue;
      if (name === 'not') add(value as Conditions);
      else out.add(name as ConditionName);
    }
  };
  for (const rule of rules ?? []) add(rule.when);
  return out;
}

/** Whether replaying these rules needs each click's minute. */
export function needsTime(used: ReadonlySet<ConditionName>): boolean {
  return TIMED.some((n) => used.has(n));
}

/**
 * A rule list built for replaying stored clicks: each condition compiled by the redirect's own
 * builders (compile-conditions.ts), except those no click can answer, which never hold.
 * `fallback` is where a click no rule takes goes: the link's url, or its rotation's entries in equal parts.
 * `recorded` is the rule list the clicks' stored rule and variant index (the link's current rules):
 * a split in the same place with the same variants keeps the variant each click was sent to, as
 * its sticky cookie would, rather than sharing the click by the weights again.
 */
export function compileReplay(
  rules: readonly Rule[] | null,
  fallback: readonly string[],
  recorded: readonly Rule[] | null = null,
): (click: ClickFacts) => ReplayedDecision {
  const none: ReplayedDecision = { rule: null, urls: fallback.map((url) => ({ url, share: 1 / fallback.length })) };
  const compiled = (rules ?? []).map((rule, i) => ({
    test: testOf(rule.when),
    urls: destinations(rule),
    sticky: sameSplit(rule, recorded?.[i]) ? rule.split! : undefined,
  }));
  return (click) => {
    const facts = factsOf(click);
    for (let i = 0; i < compiled.length; i++) {
      const c = compiled[i]!;
      if (!c.test(facts)) continue;
      const kept = click.rule === i && click.variant != null ? c.sticky?.[click.variant] : undefined;
      return { rule: i, urls: kept === undefined ? c.urls : [{ url: kept.url, share: 1 }] };
    }
    return none;
  };
}

/** Whether two rules hold the same split, variant for variant (what a visitor's recorded variant still names). */
function sameSplit(rule: Rule, other: Rule | undefined): boolean {
  if (rule.split === undefined || other?.split === undefined || rule.split.length !== other.split.length) return false;
  return rule.split.every((v, i) => v.url === other.split![i]!.url && v.weight === other.split![i]!.weight);
}

function destinations(rule: Rule): ReplayedDecision['urls'] {
  if (rule.split === undefined) return [{ url: rule.url!, share: 1 }];
  const total = rule.split.reduce((sum, v) => sum + v.weight, 0);
  return rule.split.map((v) => ({ url: v.url, share: v.weight / total }));
}

function testOf(when: Conditions | Omit<Conditions, 'not'>): (facts: RuleFacts) => boolean {
  const tests: Array<(facts: RuleFacts) => boolean> = [];
  for (const [name, value] of Object.entries(when) as Array<[string, unknown]>) {
    if (value === undefined) continue;
    if (name === 'not') {
      const inner = testOf(value as Conditions);
      tests.push((f) => !inner(f));
    } else if (UNKNOWN_IN_CLICKS.includes(name as ConditionName)) tests.push(() => false);
    else {
      const [condition] = compileConditions({ [name]: value });
      if (condition !== undefined) tests.push((f) => condition.test(f));
    }
  }
  return (f) => tests.every((t) => t(f));
}

function factsOf(click: ClickFacts): RuleFacts {
  return {
    visitor: {
      country: click.country,
      platform: click.platform as RuleFacts['visitor']['platform'],
      browser: click.browser,
      device: click.device,
      languages: click.language === null ? [] : [click.language],
      referrerHost: click.referrerHost,
    },
    query: '',
    address: '',
    now: click.minute ?? 0,
    clicks: 0,
    cookie: undefined,
  };
}
