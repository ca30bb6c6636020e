/**
 * A link's rules (docs/design/rules.md): an ordered list; the first whose conditions all hold decides,
 * none: the link's url. Stored as the API writes them, after check-rules.ts normalised them.
 */
export interface Rule {
  name: string | null;
  when: Conditions;
  /** Exactly one of url and split. */
  url?: string;
  split?: SplitVariant[];
  /** App links for visitors on that OS (docs/design/rules.md): https, or a custom scheme on APP_SCHEMES. */
  ios_url?: string;
  android_url?: string;
}

export interface SplitVariant {
  url: string;
  /** 1–100; shares are weight / sum of weights (a sum other than 100 is warned about). */
  weight: number;
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TimeWindow {
  /** Days the window opens on; absent: every day. */
  days?: Weekday[];
  /** HH:MM, local; absent: 00:00. */
  from?: string;
  /** HH:MM, local, exclusive; absent: 24:00. Before `from`: the window crosses midnight. */
  to?: string;
  /** IANA time zone. */
  tz: string;
}

/** Every condition present must hold. */
export interface Conditions {
  country?: string[];
  os?: string[];
  browser?: string[];
  device?: string[];
  language?: string[];
  /** Host suffixes, or "none" for no referrer. */
  referrer?: string[];
  /** Parameter -> value; "*": present with any value. */
  query?: Record<string, string>;
  time?: TimeWindow;
  /** ISO-8601 instants; from inclusive, to exclusive. */
  date?: { from?: string; to?: string };
  /** The link's click count: below (exclusive), from (inclusive). */
  visits?: { below?: number; from?: number };
  /** CIDR ranges or single addresses, v4 and v6. */
  ip?: string[];
  /** true: the visitor followed this link before (its cookie); false: first visit. */
  returning?: boolean;
  /** Holds when the conditions inside do not all hold. One level deep. */
  not?: Omit<Conditions, 'not'>;
}

export type ConditionName = Exclude<keyof Conditions, 'not'>;
export const CONDITION_NAMES: readonly ConditionName[] = [
  'country',
  'os',
  'browser',
  'device',
  'language',
  'referrer',
  'query',
  'time',
  'date',
  'visits',
  'ip',
  'returning',
];

/** Bounds that keep a link record small and a decision cheap. */
export const RULE_LIMITS = {
  rules: 50,
  values: 20,
  nameMax: 64,
  weightMin: 1,
  weightMax: 100,
  queryValueMax: 256,
} as const;
