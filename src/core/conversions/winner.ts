import { ValidationError } from '../shared/errors.ts';
import type { Rule } from '../rules/rule.ts';

/**
 * The rules with split `index` ended on `variant`: the rule keeps its name, conditions and app
 * links, and sends everyone to the variant's URL. 422 naming `rule` or `variant` otherwise.
 */
export function rulesWithWinner(rules: readonly Rule[], index: number, variant: number): Rule[] {
  const rule = rules[index];
  if (rule === undefined || rule.split === undefined)
    throw ValidationError.of('rule', 'The rule is not a split of this link.');
  const chosen = rule.split[variant];
  if (chosen === undefined) throw ValidationError.of('variant', 'The variant is not one of the split.');
  const { split: _ended, ...kept } = rule;
  return rules.map((r, i) => (i === index ? { ...kept, url: chosen.url } : r));
}
