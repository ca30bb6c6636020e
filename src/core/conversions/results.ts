import type { Rule } from '../rules/rule.ts';
import { twoProportionPValue } from './significance.ts';

/** Which rule and split variant decided a click: null rule is the link's own url. */
export interface Decision {
  rule: number | null;
  variant: number | null;
}

export interface ClickGroup extends Decision {
  clicks: number;
}

/** Conversions of one name in a group, and how many distinct clicks converted at all. */
export interface ConversionGroup extends Decision {
  name: string;
  /** ISO 4217 as stored; null: values sent without one. */
  currency: string | null;
  count: number;
  value: number;
}

/** A name's conversions: every value summed as sent, and those sent with a currency summed per currency. */
export interface ConversionSums {
  count: number;
  value: number;
  values: Record<string, number>;
}

export interface ConvertedGroup extends Decision {
  converted: number;
}

export interface VariantResult extends Decision {
  /** Where this rule and variant send visitors now; null when the rules no longer have it. */
  url: string | null;
  clicks: number;
  conversions: Record<string, ConversionSums>;
  /** Clicks with at least one conversion, over clicks (0 without clicks). */
  rate: number;
  /** Against the rule's first variant (two-proportion z-test); null for the first and for plain rules. */
  p_value: number | null;
}

const key = (d: Decision) => `${d.rule ?? '-'}:${d.variant ?? '-'}`;

/**
 * A link's results per rule and variant: each deciding rule and variant its current rules have
 * (with none yet: zero), and any older one its clicks or conversions still name.
 */
export function conversionResults(
  link: { url: string; rules: readonly Rule[] | null },
  clicks: ClickGroup[],
  conversions: ConversionGroup[],
  converted: ConvertedGroup[],
): VariantResult[] {
  const rows = new Map<string, VariantResult>();
  const row = (d: Decision): VariantResult => {
    let r = rows.get(key(d));
    if (r === undefined) {
      r = { rule: d.rule, variant: d.variant, url: urlOf(link, d), clicks: 0, conversions: {}, rate: 0, p_value: null };
      rows.set(key(d), r);
    }
    return r;
  };
  (link.rules ?? []).forEach((rule, i) =>
    (rule.split ?? [null]).forEach((_, v) => row({ rule: i, variant: rule.split ? v : null })),
  );
  row({ rule: null, variant: null });
  for (const g of clicks) row(g).clicks += g.clicks;
  for (const g of conversions) {
    const sums = (row(g).conversions[g.name] ??= { count: 0, value: 0, values: {} });
    sums.count += g.count;
    sums.value += g.value;
    if (g.currency !== null) sums.values[g.currency] = (sums.values[g.currency] ?? 0) + g.value;
  }
  const convertedOf = new Map(converted.map((g) => [key(g), g.converted]));
  const out = [...rows.values()].sort(
    (a, b) => (a.rule ?? Infinity) - (b.rule ?? Infinity) || (a.variant ?? -1) - (b.variant ?? -1),
  );
  for (const r of out) {
    r.rate = r.clicks > 0 ? (convertedOf.get(key(r)) ?? 0) / r.clicks : 0;
    if (r.variant !== null && r.variant > 0) {
      const base = rows.get(key({ rule: r.rule, variant: 0 }));
      r.p_value = base
        ? twoProportionPValue(convertedOf.get(key(r)) ?? 0, r.clicks, convertedOf.get(key(base)) ?? 0, base.clicks)
        : null;
    }
  }
  return out;
}

function urlOf(link: { url: string; rules: readonly Rule[] | null }, d: Decision): string | null {
  if (d.rule === null) return link.url;
  const rule = link.rules?.[d.rule];
  if (rule === undefined) return null;
  if (d.variant === null) return rule.url ?? null;
  return rule.split?.[d.variant]?.url ?? null;
}
