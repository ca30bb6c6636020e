import { compileConditions, type CompiledCondition } from './compile-conditions.ts';
import type { Conditions, Rule } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';
import {
  compileTarget,
  decisionOf,
  NO_DECISION,
  type RuleDecision,
  type RuleDestination,
  type RuleTarget,
} from './rule-targets.ts';

/**
 * A link's decider, built into tests once (when its link is read into the cache), run on every
 * visit: the link's own rules, or its phpShort targeting list compiled into rules
 * (compile-targeting.ts). One evaluation for both (docs/design/rules.md).
 */
export interface CompiledRules {
  /** The link's own rules (what explain names, whose app links apply); empty for phpShort's lists. */
  readonly rules: readonly Rule[];
  /**
   * Compiled from phpShort's targeting (or a link with none): its decisions name no rule, its
   * trace is empty, and it reads nothing of the request but the visitor.
   */
  readonly phpShort: boolean;
  /** Whether visits read and may set the link's visitor cookie (a split or a `returning` condition). */
  readonly usesCookie: boolean;
  decide(facts: RuleFacts, random: () => number): RuleDecision;
  /** Each rule up to the deciding one, with each condition's answer: what explain shows. */
  trace(
    facts: RuleFacts,
  ): Array<{ rule: number; matched: boolean; conditions: Array<{ condition: string; matched: boolean }> }>;
}

/** A rule as the compiler takes it: its conditions, all of which must hold, and where it sends visits. */
export interface DeciderRule {
  when: Conditions;
  to: RuleDestination;
}

/** A link's own rules: the first whose conditions all hold decides, named by its index. */
export function compileRules(rules: readonly Rule[]): CompiledRules {
  return compileDecider(rules.map(deciderRule), rules);
}

/**
 * `own`: the link's rules the list was made of, whose indexes decisions name; null for phpShort's
 * lists, whose decisions name none (explain, click rows, click ids and conversions say rule null).
 */
export function compileDecider(list: readonly DeciderRule[], own: readonly Rule[] | null): CompiledRules {
  const conditions = sharedConditionLists(list);
  const targets: RuleTarget[] = list.map((rule, i) => compileTarget(rule.to, own === null ? null : i, i));
  const usesCookie = list.some((r) => r.to.kind === 'split' || usesReturning(r.when));

  return {
    rules: own ?? [],
    phpShort: own === null,
    usesCookie,
    decide(facts, random) {
      const i = firstHolding(conditions, facts);
      const first = usesCookie && facts.cookie === undefined;
      if (i === -1) return first ? NO_DECISION.first : NO_DECISION.plain;
      return decisionOf(targets[i]!, facts, random, first);
    },
    trace(facts) {
      if (own === null) return [];
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
}

function deciderRule(rule: Rule): DeciderRule {
  return {
    when: rule.when,
    to: rule.split === undefined ? { kind: 'url', url: rule.url ?? null } : { kind: 'split', split: rule.split },
  };
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
 * in the same order (links made from one template, or phpShort lists of the same keys, differ only
 * in their URLs): a visit then walks one table in memory rather than its link's own copy. Bounded
 * as compile-conditions.ts's tests are.
 */
const sharedLists = new Map<string, ConditionLists>();
const SHARED_LISTS_MAX = 10_000;

function sharedConditionLists(rules: readonly DeciderRule[]): ConditionLists {
  const key = JSON.stringify(rules.map((r) => r.when));
  let lists = sharedLists.get(key);
  if (lists === undefined) {
    lists = rules.map((rule) => compileConditions(rule.when));
    if (sharedLists.size >= SHARED_LISTS_MAX) sharedLists.clear();
    sharedLists.set(key, lists);
  }
  return lists;
}

function usesReturning(when: Conditions): boolean {
  return when.returning !== undefined || when.not?.returning !== undefined;
}
