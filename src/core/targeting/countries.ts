import { getAlpha2Codes } from 'i18n-iso-countries/index.js';

// ISO 3166-1 alpha-2 codes that are "officially assigned" (249), from i18n-iso-countries' table
// (index.js: the table alone, not the 80 languages' names its package entry registers). Reserved
// codes (UK, EU, AC, AN, CS, YU...) and user-assigned ones (AA, QM..QZ, XA..XZ, ZZ) are not in
// it, but XK (Kosovo, user-assigned) is: targets refuse it like any code ISO has not assigned,
// while statistics still show it (adapters/geo/country-lookup.ts).
const NOT_ASSIGNED = new Set(['XK']);

/** In alphabetical order (the table is ordered by English name). */
export const COUNTRY_CODES: ReadonlySet<string> = new Set<string>(
  Object.keys(getAlpha2Codes())
    .filter((code) => !NOT_ASSIGNED.has(code))
    .sort(),
);

/** 'us' -> 'US'; anything that is not an assigned alpha-2 code -> null. */
export function normalizeCountryCode(input: string): string | null {
  // ASCII check first: toUpperCase maps some non-ASCII letters onto ASCII
  // ('ß' -> 'SS', dotless 'ı' -> 'I'), which would let odd input through.
  if (!/^[A-Za-z]{2}$/.test(input)) return null;
  const code = input.toUpperCase();
  return COUNTRY_CODES.has(code) ? code : null;
}
