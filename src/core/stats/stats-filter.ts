import { FieldErrorBag } from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import { VALUE_MAX_LENGTH, type Breakdown } from './dimensions.ts';

/**
 * What an owner's statistics page can be filtered by, under the query parameter it takes
 * (`?country=US&browser=Firefox`): one value each, all of them together. Hours and days are the
 * page's range, not filters.
 */
export const FILTER_NAMES = ['country', 'city', 'referrer', 'browser', 'platform', 'device', 'language'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** The click row's breakdown each filter matches. */
export const FILTER_DIMENSION: Readonly<Record<FilterName, Breakdown>> = {
  country: 'country',
  city: 'city',
  referrer: 'referrer',
  browser: 'browser',
  platform: 'platform',
  device: 'device',
  language: 'language',
};

export interface StatsFilter {
  name: FilterName;
  /** A known value as the rollups keep it: "not known" is no filter. */
  value: string;
}

const COUNTRY = /^[A-Za-z]{2}$/;
// Control, invisible and direction-changing characters are never in a stored value.
const HIDDEN = /[\p{Cc}\p{Cf}]/u;

/**
 * The filters of a query, in FILTER_NAMES order. An absent or empty parameter is no filter; a
 * repeated one, a value longer than any stored, a hidden character or a country that is not
 * two letters is a 422 naming the parameter.
 */
export function parseFilters(query: Readonly<Record<string, unknown>>): StatsFilter[] {
  const bag = new FieldErrorBag();
  const filters: StatsFilter[] = [];
  for (const name of FILTER_NAMES) {
    const raw = query[name];
    if (raw === undefined || raw === '') continue;
    if (typeof raw !== 'string') bag.add(name, messages.string(name));
    else if (raw.length > VALUE_MAX_LENGTH) bag.add(name, messages.maxChars(name, VALUE_MAX_LENGTH));
    else if (HIDDEN.test(raw)) bag.add(name, messages.hiddenCharacters(name));
    else if (name === 'country' && !COUNTRY.test(raw)) bag.add(name, messages.invalid(name));
    else filters.push({ name, value: name === 'country' ? raw.toUpperCase() : raw });
  }
  bag.throwIfAny();
  return filters;
}

/** The filters as query parameters, for links that keep them. */
export function filterQuery(filters: readonly StatsFilter[]): Record<string, string> {
  return Object.fromEntries(filters.map((f) => [f.name, f.value]));
}
