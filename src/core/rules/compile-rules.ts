import { compileConditions, type CompiledCondition } from './compile-conditions.ts';
import type { Rule } from './rule.ts';
import { rememberedVariant, SEEN_COOKIE, withVariant } from './rule-cookie.ts';
import type { RuleFacts } from './rule-facts.ts';

/** Which rule decided a visit and where it goes: null rule means none matched (the link's url). */
export interface RuleDecision {
  rule: number | null;
  /** The split's variant, when the deciding rule is a split. */
  variant: number | null;
  /** null: the link's own url. */
  url: string | null;
  /** The visitor cookie to set (rule-cookie.ts), or null to leave it as it is. */
  cookie: string | null;
}

/** A rule list built into tests once (when its link is read into the cache), run on every visit. */
export interface CompiledRules {
  readonly rules: readonly Rule[];
  /** Whether visits read and may set the link's visitor cookie (a split or a `returning` condition). */
  readonly usesCookie: boolean;
  decide(facts: RuleFacts, random: () => number): RuleDecision;
  /** Each rule up to the deciding one, with each condition's answer: what explain shows. */
  trace(
    facts: RuleFacts,
  ): Array<{ rule: number; matched: boolean; conditions: Array<{ condition: string; matched: boolean }> }>;
}

/** Where a rule sends the visits it decides: the link's own part of a compiled rule. */
interface RuleTarget {
  url: string | null;
  split: { key: string; urls: string[]; bounds: number[]; total: number } | null;
}

export function compileRules(rules: readonly Rule[]): CompiledRules {
  const conditions = sharedConditionLists(rules);
  const targets: RuleTarget[] = rules.map((rule, i) => ({
    url: rule.url ?? null,
    split: rule.split === undefined ? null : splitOf(i, rule.split),
  }));
  const usesCookie = rules.some((r) => r.split !== undefined || usesReturning(r));

  return {
    rules,
    usesCookie,
    decide(facts, random) {
      const i = firstHolding(conditions, facts);
      if (i === -1) return { rule: null, variant: null, url: null, cookie: firstVisit(facts) };
      const target = targets[i]!;
      if (target.split === null) return { rule: i, variant: null, url: target.url, cookie: firstVisit(facts) };
      const { key, urls, bounds, total } = target.split;
      const kept = rememberedVariant(facts.cookie, key, urls.length);
      if (kept !== null) return { rule: i, variant: kept, url: urls[kept]!, cookie: null };
      const draw = random() * total;
      let v = 0;
      while (v < bounds.length - 1 && draw >= bounds[v]!) v++;
      return { rule: i, variant: v, url: urls[v]!, cookie: withVariant(facts.cookie, key, v) };
    },
    trace(facts) {
      const out = [];
      for (let i = 0; i < conditions.length; i++) {
        const answers = conditions[i]!.map((c) => ({ condition: c.name, matched: c.test(facts) }));
        const matched = answers.every((c) => c.matched);
        out.push({ rule: i, matched, conditions: answers });
        if (matched) break;
      }
      return out;
    },
  };

  function firstVisit(facts: RuleFacts): string | null {
    return usesCookie && facts.cookie === undefined ? SEEN_COOKIE : null;
  }
}

type ConditionLists = ReadonlyArray<readonly CompiledCondition[]>;

/** The index of the first rule whose conditions all hold, or -1. */
function firstHolding(lists: ConditionLists, facts: RuleFacts): number {
  for (let i = 0; i < lists.length; i++) if (holds(lists[i]!, facts)) return i;
  return -1;
}

function holds(conditions: readonly CompiledCondition[], facts: RuleFacts): boolean {
  for (let j = 0; j < conditions.length; j++) if (!conditions[j]!.test(facts)) return false;
  return true;
}

/**
 * The rules' conditions, one list per rule, shared by every cached link whose rules ask the same
 * in the same order (links made from one template differ only in their URLs): a visit then walks
 * one table in memory rather than its link's own copy. Bounded as compile-conditions.ts's tests are.
 */
const sharedLists = new Map<string, ConditionLists>();
const SHARED_LISTS_MAX = 10_000;

function sharedConditionLists(rules: readonly Rule[]): ConditionLists {
  const key = JSON.stringify(rules.map((r) => r.when));
  let lists = sharedLists.get(key);
  if (lists === undefined) {
    lists = rules.map((rule) => compileConditions(rule.when));
    if (sharedLists.size >= SHARED_LISTS_MAX) sharedLists.clear();
    sharedLists.set(key, lists);
  }
  return lists;
}

function usesReturning(rule: Rule): boolean {
  return rule.when.returning !== undefined || rule.when.not?.returning !== undefined;
}

/**
 * A split's draw table and its key in the visitor cookie: the key changes with the split's
 * place and contents, so editing a split draws its visitors anew rather than keep a stale index.
 */
function splitOf(index: number, split: NonNullable<Rule['split']>) {
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
