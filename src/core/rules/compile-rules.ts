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
  trace(facts: RuleFacts): Array<{ rule: number; matched: boolean; conditions: Array<{ condition: string; matched: boolean }> }>;
}

interface CompiledRule {
  conditions: readonly CompiledCondition[];
  url: string | null;
  split: { key: string; urls: string[]; bounds: number[]; total: number } | null;
}

export function compileRules(rules: readonly Rule[]): CompiledRules {
  const compiled: CompiledRule[] = rules.map((rule, i) => ({
    conditions: compileConditions(rule.when),
    url: rule.url ?? null,
    split: rule.split === undefined ? null : splitOf(i, rule.split),
  }));
  const usesCookie = rules.some((r) => r.split !== undefined || usesReturning(r));
  const count = compiled.length;

  return {
    rules,
    usesCookie,
    decide(facts, random) {
      for (let i = 0; i < count; i++) {
        const rule = compiled[i]!;
        if (!holds(rule.conditions, facts)) continue;
        if (rule.split === null) return { rule: i, variant: null, url: rule.url, cookie: firstVisit(facts) };
        const { key, urls, bounds, total } = rule.split;
        const kept = rememberedVariant(facts.cookie, key, urls.length);
        if (kept !== null) return { rule: i, variant: kept, url: urls[kept]!, cookie: null };
        const draw = random() * total;
        let v = 0;
        while (v < bounds.length - 1 && draw >= bounds[v]!) v++;
        return { rule: i, variant: v, url: urls[v]!, cookie: withVariant(facts.cookie, key, v) };
      }
      return { rule: null, variant: null, url: null, cookie: firstVisit(facts) };
    },
    trace(facts) {
      const out = [];
      for (let i = 0; i < count; i++) {
        const conditions = compiled[i]!.conditions.map((c) => ({ condition: c.name, matched: c.test(facts) }));
        const matched = conditions.every((c) => c.matched);
        out.push({ rule: i, matched, conditions });
        if (matched) break;
      }
      return out;
    },
  };

  function firstVisit(facts: RuleFacts): string | null {
    return usesCookie && facts.cookie === undefined ? SEEN_COOKIE : null;
  }
}

function holds(conditions: readonly CompiledCondition[], facts: RuleFacts): boolean {
  for (let j = 0; j < conditions.length; j++) if (!conditions[j]!.test(facts)) return false;
  return true;
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
