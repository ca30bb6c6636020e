import type { KeyedTarget } from '../targeting/target.ts';
import type { SplitVariant } from './rule.ts';
import { rememberedVariant, SEEN_COOKIE, withVariant } from './rule-cookie.ts';
import type { RuleFacts } from './rule-facts.ts';

/** Which rule decided a visit and where it goes: null rule means none matched (the link's url) or phpShort's lists decided. */
export interface RuleDecision {
  readonly rule: number | null;
  /** The split's variant, when the deciding rule is a split. */
  readonly variant: number | null;
  /** null: the link's own url (or, with rotation, the rotation's next entry). */
  readonly url: string | null;
  /** phpShort's rotation: its entries, served in strict turn by the caller's counter (core/redirect/visit.ts). */
  readonly rotation?: readonly string[];
  /** The visitor cookie to set (rule-cookie.ts), or null to leave it as it is. */
  readonly cookie: string | null;
}

/** Where the visits a rule decides go: each kind is a rule kind of the one decider (docs/design/rules.md). */
export type RuleDestination =
  | { kind: 'url'; url: string | null }
  | { kind: 'split'; split: readonly SplitVariant[] }
  /** phpShort's language list: the entry of the visitor's best-weighted accepted language that has one. */
  | { kind: 'language'; entries: readonly KeyedTarget[] }
  /** phpShort's rotation: every entry in strict turn, the counter being the caller's. */
  | { kind: 'rotation'; urls: readonly string[] };

/** A rule's decisions for a returning visitor (`plain`) and, for links that use the cookie, a first one. */
interface Decisions {
  plain: RuleDecision;
  first: RuleDecision;
}

/**
 * A destination built into data once per compiled link: fixed decisions are made here, so a visit
 * that meets them allocates nothing; only a split's draw builds its answer.
 */
export type RuleTarget =
  | { kind: 'fixed'; decisions: Decisions }
  | { kind: 'split'; rule: number | null; key: string; urls: string[]; bounds: number[]; total: number }
  | { kind: 'language'; byLanguage: ReadonlyMap<string, Decisions> };

/** What no rule decided: the link's url, with the first-visit mark for links that use the cookie. */
export const NO_DECISION: Decisions = decisionsOf(null, null);

/** `rule`: the index decisions name (null for phpShort's lists); `index`: the rule's place, which keys a split. */
export function compileTarget(to: RuleDestination, rule: number | null, index: number): RuleTarget {
  switch (to.kind) {
    case 'url':
      return { kind: 'fixed', decisions: decisionsOf(rule, to.url) };
    case 'rotation':
      return { kind: 'fixed', decisions: decisionsOf(rule, null, to.urls) };
    case 'language':
      return { kind: 'language', byLanguage: new Map(to.entries.map((e) => [e.key, decisionsOf(rule, e.value)])) };
    case 'split':
      return { kind: 'split', rule, ...splitOf(index, to.split) };
  }
}

/** The decision of a target whose rule holds; `first`: a first visit of a link that uses the cookie. */
export function decisionOf(target: RuleTarget, facts: RuleFacts, random: () => number, first: boolean): RuleDecision {
  switch (target.kind) {
    case 'fixed':
      return first ? target.decisions.first : target.decisions.plain;
    case 'language': {
      const decisions = bestLanguage(target.byLanguage, facts.visitor.languages);
      return first ? decisions.first : decisions.plain;
    }
    case 'split':
      return drawn(target, facts, random);
  }
}

/**
 * The entry of the visitor's first language that has one: languages come best-weighted first
 * (accept-language.ts), so `fr, de;q=0.5` goes to fr's entry wherever the list places de's. The
 * rule's `language` condition holds only when one is listed; NO_DECISION is never met.
 */
function bestLanguage(byLanguage: ReadonlyMap<string, Decisions>, languages: readonly string[]): Decisions {
  for (let i = 0; i < languages.length; i++) {
    const hit = byLanguage.get(languages[i]!);
    if (hit !== undefined) return hit;
  }
  return NO_DECISION;
}

function drawn(split: Extract<RuleTarget, { kind: 'split' }>, facts: RuleFacts, random: () => number): RuleDecision {
  const { rule, key, urls, bounds, total } = split;
  const kept = rememberedVariant(facts.cookie, key, urls.length);
  if (kept !== null) return { rule, variant: kept, url: urls[kept]!, cookie: null };
  const draw = random() * total;
  let v = 0;
  while (v < bounds.length - 1 && draw >= bounds[v]!) v++;
  return { rule, variant: v, url: urls[v]!, cookie: withVariant(facts.cookie, key, v) };
}

function decisionsOf(rule: number | null, url: string | null, rotation?: readonly string[]): Decisions {
  if (rotation !== undefined)
    return {
      plain: { rule, variant: null, url, rotation, cookie: null },
      first: { rule, variant: null, url, rotation, cookie: SEEN_COOKIE },
    };
  return {
    plain: { rule, variant: null, url, cookie: null },
    first: { rule, variant: null, url, cookie: SEEN_COOKIE },
  };
}

/**
 * A split's draw table and its key in the visitor cookie: the key changes with the split's
 * place and contents, so editing a split draws its visitors anew rather than keep a stale index.
 */
function splitOf(index: number, split: readonly SplitVariant[]) {
  const bounds: number[] = [];
  let total = 0;
  for (const v of split) bounds.push((total += v.weight));
  return { key: fnv1a(`${index}|${JSON.stringify(split)}`), urls: split.map((v) => v.url), bounds, total };
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
