import { TargetType, type KeyedTarget, type Targets } from '../targeting/target.ts';
import type { Rule } from './rule.ts';

/**
 * The rules a phpShort link's targeting reads as in its record (docs/design/rules.md): one rule of
 * one condition per entry of the list target_type chooses. Ubuntu's entry comes before Linux's,
 * since an os: Linux rule matches Ubuntu too and phpShort prefers the exact platform. Rotation has
 * no rule equivalent (its strict round-robin is no condition): null, as for no targeting. Visits
 * run compile-targeting.ts, which uses these for country and platform; a language list there
 * keeps the visitor's weight order, which these one-condition rules in list order would not.
 */
export function phpShortRules(targetType: TargetType, targets: Targets): Rule[] | null {
  const one = (list: KeyedTarget[] | null, condition: 'country' | 'os' | 'language') =>
    list === null || list.length === 0
      ? null
      : list.map((e): Rule => ({ name: null, when: { [condition]: [e.key] }, url: e.value }));
  switch (targetType) {
    case TargetType.Country:
      return one(targets.country, 'country');
    case TargetType.Platform: {
      const list = targets.platform === null ? null : [...targets.platform].sort((a, b) => rank(a.key) - rank(b.key));
      return one(list, 'os');
    }
    case TargetType.Language:
      return one(targets.language, 'language');
    default:
      return null;
  }
}

const rank = (platform: string) => (platform === 'Ubuntu' ? 0 : 1);
