import { inRange, parseAddress, parseRange, type Address } from './ip-range.ts';
import type { Conditions, ConditionName } from './rule.ts';
import type { RuleFacts } from './rule-facts.ts';
import { windowTest } from './time-window.ts';
import { isOfFamily } from './visitor-names.ts';

/** One condition, ready to test visits: built once per cached link, run on every visit. */
export interface CompiledCondition {
  name: ConditionName | 'not';
  test(facts: RuleFacts): boolean;
}

/** The conditions of a rule as tests, cheapest first (all must hold, so order changes nothing else). */
export function compileConditions(when: Conditions): CompiledCondition[] {
  const out: CompiledCondition[] = [];
  for (const [name, value] of Object.entries(when) as Array<[keyof Conditions, unknown]>) {
    if (value === undefined) continue;
    if (name === 'not') {
      const inner = compileConditions(value as Conditions);
      out.push({ name, test: (f) => !inner.every((c) => c.test(f)) });
    } else out.push({ name, test: BUILDERS[name](value as never) });
  }
  return out.sort((a, b) => COST[a.name] - COST[b.name]);
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
    let lastQuery: string | null = null;
    let params = new URLSearchParams();
    return (f) => {
      if (f.query !== lastQuery) {
        params = new URLSearchParams(f.query);
        lastQuery = f.query;
      }
      return entries.every(([name, value]) => (value === '*' ? params.has(name) : params.getAll(name).includes(value)));
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
    let lastText: string | null = null;
    let last: Address | null = null;
    return (f) => {
      if (f.address !== lastText) {
        last = parseAddress(f.address);
        lastText = f.address;
      }
      const address = last;
      return address !== null && ranges.some((r) => inRange(address, r));
    };
  },
  returning: (value) => (f) => (f.cookie !== undefined) === value,
};
