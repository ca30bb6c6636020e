import { inRange, parseRange } from './ip-range.ts';
import type { Conditions, ConditionName } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';
import { windowTest } from './time-window.ts';
import { isOfFamily } from './visitor-names.ts';
import { addressOf, paramsOf } from './visit-readings.ts';

/** One condition, ready to test visits: built once per cached link, run on every visit. */
export interface CompiledCondition {
  name: ConditionName | 'not';
  test(facts: RuleFacts): boolean;
}

/** The conditions of a rule as tests, cheapest first (all must hold, so order changes nothing else). */
export function compileConditions(when: Conditions): readonly CompiledCondition[] {
  const key = JSON.stringify(when);
  let list = sharedLists.get(key);
  if (list === undefined) {
    const out: CompiledCondition[] = [];
    for (const [name, value] of Object.entries(when) as Array<[keyof Conditions, unknown]>) {
      if (value !== undefined) out.push(sharedCondition(name, value));
    }
    list = out.sort((a, b) => COST[a.name] - COST[b.name]);
    if (sharedLists.size >= SHARED_MAX) sharedLists.clear();
    sharedLists.set(key, list);
  }
  return list;
}

const sharedLists = new Map<string, readonly CompiledCondition[]>();

/**
 * One test for each distinct condition, whichever cached links hold it: a visit then reads the
 * few tests its links share rather than each link's copy, spread over memory (rules are stored
 * written one way, check-rules.ts, so equal conditions have equal JSON). Bounded: past the limit
 * it starts over, and links compiled before keep their own tests.
 */
const shared = new Map<string, CompiledCondition>();
const SHARED_MAX = 10_000;

function sharedCondition(name: keyof Conditions, value: unknown): CompiledCondition {
  const key = `${name} ${JSON.stringify(value)}`;
  let condition = shared.get(key);
  if (condition === undefined) {
    condition = build(name, value);
    if (shared.size >= SHARED_MAX) shared.clear();
    shared.set(key, condition);
  }
  return condition;
}

function build(name: keyof Conditions, value: unknown): CompiledCondition {
  if (name !== 'not') return { name, test: BUILDERS[name](value as never) };
  const inner = compileConditions(value as Conditions);
  return { name, test: (f) => !inner.every((c) => c.test(f)) };
}

const COST: Record<CompiledCondition['name'], number> = {
  country: 0,
  device: 0,
  os: 0,
  returning: 0,
  visits: 0,
  date: 0,
  language: 1,
  referrer: 1,
  browser: 1,
  time: 2,
  query: 3,
  ip: 3,
  not: 4,
};

type Builder<K extends ConditionName> = (value: NonNullable<Conditions[K]>) => (facts: RuleFacts) => boolean;

const BUILDERS: { [K in ConditionName]: Builder<K> } = {
  country: (codes) => {
    const set = new Set(codes);
    return (f) => f.visitor.country !== null && set.has(f.visitor.country);
  },
  os: (names) => {
    // An Ubuntu visitor is a Linux one too (as phpShort's platform list treats it).
    const set = new Set<string>(names.includes('Linux') ? [...names, 'Ubuntu'] : names);
    return (f) => f.visitor.platform !== null && set.has(f.visitor.platform);
  },
  browser: (families) => {
    const known = new Map<string, boolean>();
    return (f) => {
      const b = f.visitor.browser;
      if (b === null) return false;
      let hit = known.get(b);
      if (hit === undefined) {
        hit = families.some((family) => isOfFamily(b, family));
        if (known.size < 256) known.set(b, hit);
      }
      return hit;
    };
  },
  device: (devices) => {
    const set = new Set<string>(devices);
    return (f) => f.visitor.device !== null && set.has(f.visitor.device);
  },
  language: (codes) => {
    const set = new Set(codes);
    return (f) => f.visitor.languages.some((l) => set.has(l));
  },
  referrer: (suffixes) => {
    const none = suffixes.includes('none');
    const hosts = suffixes.filter((s) => s !== 'none');
    return (f) => {
      const host = f.visitor.referrerHost;
      if (host === null) return none;
      return hosts.some((s) => host === s || host.endsWith(`.${s}`));
    };
  },
  query: (wanted) => {
    const entries = Object.entries(wanted);
    return (f) => {
      const params = paramsOf(f.query);
      return (
        params !== null &&
        entries.every(([name, value]) => (value === '*' ? params.has(name) : params.getAll(name).includes(value)))
      );
    };
  },
  time: (window) => {
    const test = windowTest(window);
    return (f) => test(f.now);
  },
  date: ({ from, to }) => {
    const start = from === undefined ? -Infinity : Date.parse(from);
    const end = to === undefined ? Infinity : Date.parse(to);
    return (f) => f.now >= start && f.now < end;
  },
  visits: ({ below, from }) => {
    const lo = from ?? 0;
    const hi = below ?? Infinity;
    return (f) => f.clicks >= lo && f.clicks < hi;
  },
  ip: (cidrs) => {
    const ranges = cidrs.map(parseRange).filter((r) => r !== null);
    return (f) => {
      const address = addressOf(f.address);
      return address !== null && ranges.some((r) => inRange(address, r));
    };
  },
  returning: (value) => (f) => (f.cookie !== undefined) === value,
};
