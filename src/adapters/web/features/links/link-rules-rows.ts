import { CONDITION_NAMES, type ConditionName, type Conditions, type Rule } from '../../../../core/rules/rule.ts';

/**
 * The rules builder's rows (docs/design/rules.md, The builder): each rule a row of conditions,
 * each condition one kind with its values as the form types them. Rows become the same JSON the
 * API takes, checked by the same core (check-rules.ts); saved rules become rows again.
 */
export interface ConditionRow {
  kind: ConditionName;
  /** Ticked conditions go into the rule's `not`: the rule holds when they do not all hold. */
  not: boolean;
  /** Lists (country, language, referrer, ip), "k=v" pairs (query), "yes"/"no" (returning): as typed. */
  text: string;
  /** Picked from a list: OS, browser, device names; a time window's days. */
  picked: string[];
  /** time: HH:MM; date: instants; visits: counts. */
  from: string;
  to: string;
  tz: string;
}

export interface VariantRow {
  url: string;
  weight: string;
}

export interface RuleRow {
  name: string;
  /** A rule sends to one URL, or splits its visitors between variants. */
  mode: 'url' | 'split';
  url: string;
  split: VariantRow[];
  ios_url: string;
  android_url: string;
  conditions: ConditionRow[];
}

/** The names the statistics record for the browsers a rule most often names. */
export const RULE_BROWSERS = [
  'Chrome',
  'Mobile Safari',
  'Safari',
  'Firefox',
  'Edge',
  'Samsung Internet',
  'Opera',
  'Chrome WebView',
];

const LISTS: readonly ConditionName[] = ['country', 'language', 'referrer', 'ip'];
const PICKED: readonly ConditionName[] = ['os', 'browser', 'device'];

export const emptyCondition = (kind: ConditionName = 'country'): ConditionRow => ({
  kind,
  not: false,
  text: '',
  picked: [],
  from: '',
  to: '',
  tz: '',
});

export const emptyVariant = (): VariantRow => ({ url: '', weight: '' });

export const emptyRule = (): RuleRow => ({
  name: '',
  mode: 'url',
  url: '',
  split: [emptyVariant(), emptyVariant()],
  ios_url: '',
  android_url: '',
  conditions: [],
});

const words = (text: string) => text.split(/[\s,]+/).filter((w) => w !== '');

/** A typed count as a number when it is one; as typed otherwise, so the core names the field. */
const count = (text: string): number | string => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text.trim());

function conditionValue(c: ConditionRow): unknown {
  if (LISTS.includes(c.kind)) return words(c.text);
  if (PICKED.includes(c.kind)) return c.picked;
  switch (c.kind) {
    case 'query':
      return Object.fromEntries(
        c.text
          .split(/[\n,&]+/)
          .map((p) => p.trim())
          .filter((p) => p !== '')
          .map((p) => (p.includes('=') ? [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] : [p, '*'])),
      );
    case 'time':
      return defined({ days: c.picked.length > 0 ? c.picked : undefined, from: c.from, to: c.to, tz: c.tz });
    case 'date':
      return defined({ from: c.from, to: c.to });
    case 'visits':
      return defined({ from: c.from === '' ? undefined : count(c.from), below: c.to === '' ? undefined : count(c.to) });
    default:
      return c.text === 'yes' ? true : c.text === 'no' ? false : c.text;
  }
}

/** Drops blank parts: an empty `to` is "no end", as the API reads an absent one. */
function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
}

/** The rules the rows describe, as the API takes them (the core checks them; nothing is dropped that it should name). */
export function rowsToRules(rows: readonly RuleRow[]): unknown[] {
  return rows.map((r) => {
    const when: Record<string, unknown> = {};
    const not: Record<string, unknown> = {};
    for (const c of r.conditions) (c.not ? not : when)[c.kind] = conditionValue(c);
    if (Object.keys(not).length > 0) when.not = not;
    const rule: Record<string, unknown> = { name: r.name.trim() === '' ? null : r.name.trim(), when };
    if (r.mode === 'split')
      rule.split = r.split.map((v) => ({ url: v.url.trim(), weight: v.weight.trim() === '' ? '' : count(v.weight) }));
    else rule.url = r.url.trim();
    if (r.ios_url.trim() !== '') rule.ios_url = r.ios_url.trim();
    if (r.android_url.trim() !== '') rule.android_url = r.android_url.trim();
    return rule;
  });
}

function conditionRow(kind: ConditionName, value: unknown, not: boolean): ConditionRow {
  const c = { ...emptyCondition(kind), not };
  if (LISTS.includes(kind)) return { ...c, text: (value as string[]).join(', ') };
  if (PICKED.includes(kind)) return { ...c, picked: [...(value as string[])] };
  switch (kind) {
    case 'query':
      return {
        ...c,
        text: Object.entries(value as Record<string, string>)
          .map(([k, v]) => `${k}=${v}`)
          .join(', '),
      };
    case 'time': {
      const t = value as NonNullable<Conditions['time']>;
      return { ...c, picked: [...(t.days ?? [])], from: t.from ?? '', to: t.to ?? '', tz: t.tz };
    }
    case 'date': {
      const d = value as NonNullable<Conditions['date']>;
      return { ...c, from: d.from ?? '', to: d.to ?? '' };
    }
    case 'visits': {
      const v = value as NonNullable<Conditions['visits']>;
      return {
        ...c,
        from: v.from === undefined ? '' : String(v.from),
        to: v.below === undefined ? '' : String(v.below),
      };
    }
    default:
      return { ...c, text: value === true ? 'yes' : 'no' };
  }
}

function conditionsOf(when: Conditions | Omit<Conditions, 'not'>, not: boolean): ConditionRow[] {
  return CONDITION_NAMES.filter((k) => when[k] !== undefined).map((k) => conditionRow(k, when[k], not));
}

/** Saved rules as rows: conditions in the model's order, then those inside `not`. */
export function rulesToRows(rules: readonly Rule[] | null): RuleRow[] {
  return (rules ?? []).map((r) => ({
    name: r.name ?? '',
    mode: r.split === undefined ? 'url' : 'split',
    url: r.url ?? '',
    split:
      r.split === undefined
        ? [emptyVariant(), emptyVariant()]
        : r.split.map((v) => ({ url: v.url, weight: String(v.weight) })),
    ios_url: r.ios_url ?? '',
    android_url: r.android_url ?? '',
    conditions: [...conditionsOf(r.when, false), ...conditionsOf(r.when.not ?? {}, true)],
  }));
}

type Form = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []).filter((x): x is string => typeof x === 'string');
/** qs makes `rule[0]` an array, but an object for indices past its array limit. */
const items = (v: unknown): Form[] =>
  (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []).map((x: unknown) =>
    x && typeof x === 'object' ? (x as Form) : {},
  );
const kindOf = (v: unknown): ConditionName => CONDITION_NAMES.find((k) => k === v) ?? 'country';

/** The rows as the browser posted them (`rule[0][c][1][text]` …), bounded by the API's limits. */
export function rowsOfForm(form: Form, limits: { rules: number; values: number }): RuleRow[] {
  return items(form.rule)
    .slice(0, limits.rules + 1)
    .map((r) => ({
      name: str(r.name),
      mode: r.mode === 'split' ? 'split' : 'url',
      url: str(r.url),
      split: items(r.split)
        .slice(0, limits.values + 1)
        .map((v) => ({ url: str(v.url), weight: str(v.weight) })),
      ios_url: str(r.ios_url),
      android_url: str(r.android_url),
      conditions: items(r.c)
        .slice(0, CONDITION_NAMES.length * 2)
        .map((c) => ({
          kind: kindOf(c.kind),
          not: c.not === '1',
          text: str(c.text),
          picked: strs(c.picked).filter((p) => p !== ''),
          from: str(c.from),
          to: str(c.to),
          tz: str(c.tz),
        })),
    }));
}

/**
 * A row button's change (its `intent`: `add-rule`, `up:2`, `remove-condition:0:1` …), or null
 * when the form was sent to save or preview. Without the script these buttons post the form and
 * the page comes back with the change made and everything typed kept.
 */
export function applyRowAction(rows: RuleRow[], intent: string): RuleRow[] | null {
  const [action = '', a = -1, b = -1] = intent.split(':').map((x, i) => (i === 0 ? x : Number(x))) as [
    string,
    number,
    number,
  ];
  const out = rows.map((r) => ({ ...r, conditions: [...r.conditions], split: [...r.split] }));
  const rule = out[a];
  switch (action) {
    case 'refresh':
      return out;
    case 'add-rule':
      return [...out, emptyRule()];
    case 'remove-rule':
      return out.filter((_, i) => i !== a);
    case 'up':
    case 'down': {
      const to = action === 'up' ? a - 1 : a + 1;
      if (rule === undefined || to < 0 || to >= out.length) return out;
      [out[a], out[to]] = [out[to]!, rule];
      return out;
    }
    case 'add-condition':
      rule?.conditions.push(emptyCondition());
      return out;
    case 'remove-condition':
      rule?.conditions.splice(b, 1);
      return out;
    case 'add-variant':
      rule?.split.push(emptyVariant());
      return out;
    case 'remove-variant':
      rule?.split.splice(b, 1);
      return out;
    default:
      return null;
  }
}
