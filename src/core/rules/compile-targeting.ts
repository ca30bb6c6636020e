import { TargetType, type Targets } from '../targeting/target.ts';
import { compileDecider, compileRules, type CompiledRules, type DeciderRule } from './compile-rules.ts';
import { phpShortRules } from './phpshort-rules.ts';
import type { Rule } from './rule.ts';

/** A link's decider: its own rules when it has any, else its phpShort targeting list compiled into rules. */
export function compileLinkRules(link: {
  rules: readonly Rule[] | null;
  targetType: TargetType;
  targets: Targets;
}): CompiledRules {
  return link.rules === null ? compileTargeting(link.targetType, link.targets) : compileRules(link.rules);
}

/** A link without rules or targeting (or with an empty list): one decider for all of them. */
const NO_TARGETING = compileDecider([], null);

/**
 * phpShort's targeting as the decider's rules (docs/design/rules.md): only the list target_type
 * names acts. Country and platform are rules of one condition each (phpshort-rules.ts, which
 * puts Ubuntu before Linux); language is one rule of its own kind, which picks by the visitor's
 * Accept-Language weights rather than the list's order; rotation one that always holds and
 * serves its entries in strict turn. Decisions name no rule.
 */
export function compileTargeting(targetType: TargetType, targets: Targets): CompiledRules {
  const list = targetingRules(targetType, targets);
  return list.length === 0 ? NO_TARGETING : compileDecider(list, null);
}

function targetingRules(targetType: TargetType, targets: Targets): DeciderRule[] {
  switch (targetType) {
    case TargetType.Country:
    case TargetType.Platform:
      return (phpShortRules(targetType, targets) ?? []).map((r) => ({
        when: r.when,
        to: { kind: 'url', url: r.url! },
      }));
    case TargetType.Language: {
      const entries = targets.language ?? [];
      if (entries.length === 0) return [];
      return [{ when: { language: entries.map((e) => e.key) }, to: { kind: 'language', entries } }];
    }
    case TargetType.Rotation: {
      const urls = (targets.rotation ?? []).map((e) => e.value);
      if (urls.length === 0) return [];
      // One entry needs no counter: skipping it saves a round trip to the shared store.
      return [{ when: {}, to: urls.length === 1 ? { kind: 'url', url: urls[0]! } : { kind: 'rotation', urls } }];
    }
    default:
      return [];
  }
}
