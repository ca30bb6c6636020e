import { CONDITION_NAMES, type Conditions, type Rule } from './rule.ts';
import { isEmptyWindow } from './time-window.ts';

/** Something saved that is allowed but likely a mistake: answered beside the record, never refused. */
export interface RuleWarning {
  field: string;
  message: string;
}

/**
 * What is odd about a saved rule list: a rule an earlier one always pre-empts, a split whose
 * weights do not sum to 100 (shares are then weight / sum), an empty time window, a repeated value.
 */
export function ruleWarnings(rules: readonly Rule[] | null): RuleWarning[] {
  if (rules === null) return [];
  const out: RuleWarning[] = [];
  rules.forEach((rule, i) => {
    const at = `rules.${i}`;
    const earlier = rules.slice(0, i).findIndex((e) => covers(e.when, rule.when));
    if (earlier !== -1)
      out.push({
        field: at,
        message: `This rule never decides: rules.${earlier} matches whenever it does and comes first.`,
      });
    if (rule.split !== undefined) {
      const sum = rule.split.reduce((s, v) => s + v.weight, 0);
      if (sum !== 100)
        out.push({
          field: `${at}.split`,
          message: `The weights sum to ${sum}, not 100: each destination gets its weight divided by ${sum}.`,
        });
    }
    conditionWarnings(out, `${at}.when`, rule.when);
    if (rule.when.not !== undefined) conditionWarnings(out, `${at}.when.not`, rule.when.not);
  });
  return out;
}

function conditionWarnings(out: RuleWarning[], at: string, when: Conditions): void {
  if (when.time !== undefined && isEmptyWindow(when.time))
    out.push({ field: `${at}.time`, message: 'This time window is empty: it never holds.' });
  for (const name of ['country', 'os', 'browser', 'device', 'language', 'referrer', 'ip'] as const) {
    const values = when[name];
    if (values === undefined) continue;
    values.forEach((v, j) => {
      if (values.indexOf(v) !== j) out.push({ field: `${at}.${name}.${j}`, message: `${v} is listed more than once.` });
    });
  }
  if (when.visits?.below !== undefined && when.visits.from !== undefined && when.visits.from >= when.visits.below)
    out.push({
      field: `${at}.visits`,
      message: 'No click count is both from and below these numbers: this condition never holds.',
    });
  if (when.date?.from !== undefined && when.date.to !== undefined && when.date.from >= when.date.to)
    out.push({ field: `${at}.date`, message: 'This date range is empty: it never holds.' });
}

/**
 * Whether `a` holds whenever `b` does, as far as can be told by looking: every condition of `a`
 * is in `b` and at least as wide (a list that includes b's values; anything else the same).
 */
function covers(a: Conditions, b: Conditions): boolean {
  for (const name of CONDITION_NAMES) {
    const av = a[name];
    if (av === undefined) continue;
    const bv = b[name];
    if (bv === undefined) return false;
    if (Array.isArray(av) && Array.isArray(bv)) {
      if (!bv.every((v) => av.includes(v))) return false;
    } else if (JSON.stringify(av) !== JSON.stringify(bv)) return false;
  }
  if (a.not !== undefined && JSON.stringify(a.not) !== JSON.stringify(b.not)) return false;
  return true;
}
