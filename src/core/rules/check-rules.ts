import type { FieldFaults } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { UrlPolicy } from '../links/url-policy.ts';
import { normalizeCountryCode } from '../targeting/countries.ts';
import { normalizeLanguageCode } from '../targeting/languages.ts';
import { formatRange, parseRange } from './ip-range.ts';
import {
  CONDITION_NAMES,
  RULE_LIMITS,
  WEEKDAYS,
  type Conditions,
  type Rule,
  type SplitVariant,
  type TimeWindow,
  type Weekday,
} from './rule.ts';
import { isTimeZone } from './time-window.ts';
import { APP_LINK_FIELDS } from './app-link.ts';
import { browserFamily, DEVICES, osName } from './visitor-names.ts';

type Bag = FieldFaults;
type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `raw` when it is an object; else its field is named (by `message`) and null. */
function objectAt(bag: Bag, at: string, raw: unknown, message = `The ${at} field must be an object.`): Obj | null {
  if (isObject(raw)) return raw;
  bag.add(at, message);
  return null;
}

/** Hands faults on to `bag` and remembers whether any came: a part of the input is good only if none did. */
function watched(bag: Bag): Bag & { readonly ok: boolean } {
  let ok = true;
  return {
    add(field, message) {
      bag.add(field, message);
      ok = false;
    },
    get ok() {
      return ok;
    },
  };
}
const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
// An instant with its offset: a date alone, or a time without a zone, would mean a different
// moment to every reader.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const HOST_SUFFIX = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A link's rules as a client wrote them (JSON, or JSON text from a form), checked and written the
 * one way; every fault is named by its path (`rules.3.when.country.2`). undefined: not sent;
 * null: clear (also for []). Repeated values are kept: they are warned about, not refused.
 */
export function checkRules(bag: Bag, input: unknown, urls: UrlPolicy): Rule[] | null | undefined {
  if (input === undefined) return undefined;
  if (input === null || input === '') return null;
  // A form's text, or a null, may arrive wrapped in a one-item list (the body validator's coercion).
  let value: unknown =
    Array.isArray(input) && input.length === 1 && (typeof input[0] === 'string' || input[0] === null)
      ? input[0]
      : input;
  if (value === '' || value === null) return null;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      bag.add('rules', messages.invalid('rules'));
      return undefined;
    }
  }
  if (!Array.isArray(value)) {
    bag.add('rules', messages.array('rules'));
    return undefined;
  }
  if (value.length > RULE_LIMITS.rules) {
    bag.add('rules', messages.max('rules', RULE_LIMITS.rules).replace('.', ' items.'));
    return undefined;
  }
  if (value.length === 0) return null;
  const out: Rule[] = [];
  let ok = true;
  value.forEach((raw, i) => {
    const rule = checkRule(bag, `rules.${i}`, raw, urls);
    if (rule === null) ok = false;
    else out.push(rule);
  });
  return ok ? out : undefined;
}

function checkRule(outer: Bag, at: string, input: unknown, urls: UrlPolicy): Rule | null {
  const raw = objectAt(outer, at, input);
  if (raw === null) return null;
  const bag = watched(outer);
  let name: string | null = null;
  if (raw.name !== undefined && raw.name !== null && raw.name !== '') {
    if (typeof raw.name !== 'string') bag.add(`${at}.name`, messages.string(`${at}.name`));
    else if (raw.name.trim().length > RULE_LIMITS.nameMax)
      bag.add(`${at}.name`, messages.maxChars(`${at}.name`, RULE_LIMITS.nameMax));
    else name = raw.name.trim() || null;
  }
  const when = raw.when === undefined || raw.when === null ? {} : checkConditions(bag, `${at}.when`, raw.when, true);
  const hasUrl = raw.url !== undefined && raw.url !== null && raw.url !== '';
  const hasSplit = raw.split !== undefined && raw.split !== null;
  const rule: Rule = { name, when: when ?? {} };
  if (hasUrl === hasSplit) bag.add(at, `The ${at} field must have either a url or a split.`);
  else if (hasUrl) {
    if (typeof raw.url !== 'string') bag.add(`${at}.url`, messages.url(`${at}.url`));
    else {
      const url = urls.check(bag, `${at}.url`, raw.url);
      if (url !== undefined) rule.url = url;
    }
  } else {
    const split = checkSplit(bag, `${at}.split`, raw.split, urls);
    if (split !== null) rule.split = split;
  }
  for (const key of APP_LINK_FIELDS) {
    const app = urls.checkApp(bag, `${at}.${key}`, raw[key]);
    if (typeof app === 'string') rule[key] = app;
  }
  return bag.ok && when !== null ? rule : null;
}

function checkSplit(bag: Bag, at: string, raw: unknown, urls: UrlPolicy): SplitVariant[] | null {
  if (!Array.isArray(raw) || raw.length < 2) {
    bag.add(at, `The ${at} field must list at least 2 destinations.`);
    return null;
  }
  if (raw.length > RULE_LIMITS.values) {
    bag.add(at, `The ${at} field must not have more than ${RULE_LIMITS.values} items.`);
    return null;
  }
  const out: SplitVariant[] = [];
  raw.forEach((v, j) => {
    const field = `${at}.${j}`;
    const variant = objectAt(bag, field, v);
    if (variant === null) return;
    const url =
      typeof variant.url === 'string' && variant.url !== ''
        ? urls.check(bag, `${field}.url`, variant.url)
        : bag.add(`${field}.url`, messages.required(`${field}.url`));
    const w = variant.weight;
    if (typeof w !== 'number' || !Number.isInteger(w) || w < RULE_LIMITS.weightMin || w > RULE_LIMITS.weightMax)
      bag.add(
        `${field}.weight`,
        `The ${field}.weight field must be an integer between ${RULE_LIMITS.weightMin} and ${RULE_LIMITS.weightMax}.`,
      );
    else if (url !== undefined) out.push({ url, weight: w });
  });
  return out.length === raw.length ? out : null;
}

/** The conditions of one rule (or of its `not`); null when any is bad. */
function checkConditions(outer: Bag, at: string, input: unknown, top: boolean): Conditions | null {
  const raw = objectAt(outer, at, input);
  if (raw === null) return null;
  const bag = watched(outer);
  const out: Conditions = {};
  for (const key of Object.keys(raw)) {
    const field = `${at}.${key}`;
    const value = raw[key];
    if (key === 'not' && top) {
      const inner = checkConditions(bag, field, value, false);
      if (inner !== null) out.not = inner;
      continue;
    }
    if (!(CONDITION_NAMES as readonly string[]).includes(key)) {
      bag.add(field, `The ${field} condition is not known.`);
      continue;
    }
    const checked = CHECKS[key as keyof typeof CHECKS](bag, field, value);
    if (checked !== undefined) (out as Obj)[key] = checked;
  }
  return bag.ok ? out : null;
}

function list(
  bag: Bag,
  at: string,
  raw: unknown,
  each: (v: string) => string | null,
  what: string,
): string[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    bag.add(at, `The ${at} field must be a list of at least one ${what}.`);
    return undefined;
  }
  if (raw.length > RULE_LIMITS.values) {
    bag.add(at, `The ${at} field must not have more than ${RULE_LIMITS.values} items.`);
    return undefined;
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    const value = typeof v === 'string' ? each(v.trim()) : null;
    if (value === null) bag.add(`${at}.${i}`, `The ${at}.${i} field must be ${what}.`);
    else out.push(value);
  });
  return out.length === raw.length ? out : undefined;
}

const CHECKS = {
  country: (bag: Bag, at: string, raw: unknown) =>
    list(bag, at, raw, normalizeCountryCode, 'an ISO 3166-1 alpha-2 country code'),
  language: (bag: Bag, at: string, raw: unknown) =>
    list(bag, at, raw, normalizeLanguageCode, 'an ISO 639-1 language code'),
  os: (bag: Bag, at: string, raw: unknown) =>
    list(bag, at, raw, osName, 'one of iOS, Android, Windows, OS X, Linux, Ubuntu, Chrome OS'),
  browser: (bag: Bag, at: string, raw: unknown) =>
    list(bag, at, raw, browserFamily, 'a browser such as Chrome, Safari, Firefox, Edge, Samsung Internet or Opera'),
  device: (bag: Bag, at: string, raw: unknown) =>
    list(
      bag,
      at,
      raw,
      (v) => (DEVICES as readonly string[]).find((d) => d === v.toLowerCase()) ?? null,
      'one of desktop, mobile, tablet',
    ),
  referrer: (bag: Bag, at: string, raw: unknown) =>
    list(
      bag,
      at,
      raw,
      (v) => {
        const host = v
          .toLowerCase()
          .replace(/^\*?\./, '')
          .replace(/\.$/, '');
        return host === 'none' || HOST_SUFFIX.test(host) ? host : null;
      },
      'a host name or "none"',
    ),
  ip: (bag: Bag, at: string, raw: unknown) =>
    list(
      bag,
      at,
      raw,
      (v) => {
        const range = parseRange(v);
        return range === null ? null : formatRange(range);
      },
      'an IP address or CIDR range',
    ),
  query: (bag: Bag, at: string, raw: unknown): Record<string, string> | undefined => {
    if (!isObject(raw) || Object.keys(raw).length === 0)
      return void bag.add(at, `The ${at} field must name at least one parameter.`);
    const entries = Object.entries(raw);
    if (entries.length > RULE_LIMITS.values)
      return void bag.add(at, `The ${at} field must not have more than ${RULE_LIMITS.values} items.`);
    const out: Record<string, string> = {};
    let ok = true;
    for (const [name, value] of entries) {
      if (
        name === '' ||
        name.length > RULE_LIMITS.queryValueMax ||
        typeof value !== 'string' ||
        value.length > RULE_LIMITS.queryValueMax
      ) {
        bag.add(
          `${at}.${name}`,
          `The ${at}.${name} field must be a text of at most ${RULE_LIMITS.queryValueMax} characters ("*" for any value).`,
        );
        ok = false;
      } else out[name] = value;
    }
    return ok ? out : undefined;
  },
  time: (outer: Bag, at: string, input: unknown): TimeWindow | undefined => {
    const raw = objectAt(outer, at, input, `The ${at} field must be an object with days, from, to and tz.`);
    if (raw === null) return undefined;
    const out: TimeWindow = { tz: 'UTC' };
    const bag = watched(outer);
    if (raw.tz !== undefined) {
      if (typeof raw.tz === 'string' && raw.tz !== '' && isTimeZone(raw.tz)) out.tz = raw.tz;
      else bag.add(`${at}.tz`, `The ${at}.tz field must be an IANA time zone such as Europe/Berlin.`);
    }
    for (const end of ['from', 'to'] as const) {
      const v = raw[end];
      if (v === undefined || v === null) continue;
      if (typeof v === 'string' && HHMM.test(v)) out[end] = v;
      else bag.add(`${at}.${end}`, messages.time(`${at}.${end}`));
    }
    if (raw.days !== undefined) {
      const days = Array.isArray(raw.days) ? raw.days : null;
      if (days === null || days.length > 7) bag.add(`${at}.days`, `The ${at}.days field must list days (mon … sun).`);
      else {
        const checked = days.map((d, i) => {
          const day =
            typeof d === 'string'
              ? (WEEKDAYS as readonly string[]).find((w) => w === d.toLowerCase().slice(0, 3))
              : undefined;
          if (day === undefined)
            bag.add(`${at}.days.${i}`, `The ${at}.days.${i} field must be one of ${WEEKDAYS.join(', ')}.`);
          return day as Weekday;
        });
        out.days = checked;
      }
    }
    return bag.ok ? out : undefined;
  },
  date: (bag: Bag, at: string, raw: unknown): { from?: string; to?: string } | undefined => {
    if (!isObject(raw) || (raw.from == null && raw.to == null))
      return void bag.add(at, `The ${at} field must have a from or a to instant.`);
    const out: { from?: string; to?: string } = {};
    let ok = true;
    for (const end of ['from', 'to'] as const) {
      const v = raw[end];
      if (v === undefined || v === null) continue;
      const ms = typeof v === 'string' && INSTANT.test(v) ? Date.parse(v) : Number.NaN;
      if (Number.isNaN(ms)) {
        bag.add(
          `${at}.${end}`,
          `The ${at}.${end} field must be an ISO-8601 instant with its offset (2026-11-27T10:00:00Z).`,
        );
        ok = false;
      } else out[end] = new Date(ms).toISOString();
    }
    return ok ? out : undefined;
  },
  visits: (bag: Bag, at: string, raw: unknown): { below?: number; from?: number } | undefined => {
    if (!isObject(raw) || (raw.below == null && raw.from == null))
      return void bag.add(at, `The ${at} field must have below or from.`);
    const out: { below?: number; from?: number } = {};
    let ok = true;
    for (const end of ['below', 'from'] as const) {
      const v = raw[end];
      if (v === undefined || v === null) continue;
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2_147_483_647) out[end] = v;
      else {
        bag.add(`${at}.${end}`, messages.integer(`${at}.${end}`));
        ok = false;
      }
    }
    return ok ? out : undefined;
  },
  returning: (bag: Bag, at: string, raw: unknown): boolean | undefined => {
    if (raw === true || raw === 1 || raw === '1') return true;
    if (raw === false || raw === 0 || raw === '0') return false;
    return void bag.add(at, `The ${at} field must be true or false.`);
  },
} satisfies Record<keyof Omit<Conditions, 'not'>, (bag: Bag, at: string, raw: unknown) => unknown>;
