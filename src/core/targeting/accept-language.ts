import Negotiator from 'negotiator';

// Headers are attacker-controlled and parsed on every redirect, and negotiator reads whatever it is
// given: past these bounds the rest is ignored, so a megabyte header costs no more than a normal one.
const MAX_CHARS = 1000;
const MAX_ENTRIES = 50;

const TAG = /^([A-Za-z]{2,8})(?:-[A-Za-z0-9]{1,8})*$/;
// RFC 9110 allows whitespace around ";" and "=" and either case of "q"; negotiator reads a weight
// only when it is written ";q=", and would weigh "fr; q=0.5" as q=1.
const WEIGHT = /\s*;\s*q\s*=\s*/gi;

/**
 * Primary language subtags of an Accept-Language header, lower case, best first:
 * by q-weight descending, then by position. q=0, `*`, duplicates and malformed tags are dropped;
 * a weight outside RFC 9110's grammar ("q=1.5", "q=.5") is the number negotiator reads in it.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const accept = withinBounds(header).replace(WEIGHT, ';q=');
  const primaries = new Set<string>();
  for (const tag of new Negotiator({ headers: { 'accept-language': accept } }).languages()) {
    const primary = TAG.exec(tag)?.[1];
    if (primary !== undefined) primaries.add(primary.toLowerCase());
  }
  return [...primaries];
}

/** The header's first MAX_ENTRIES entries within its first MAX_CHARS characters. */
function withinBounds(header: string): string {
  const truncated = header.length > MAX_CHARS;
  const parts = (truncated ? header.slice(0, MAX_CHARS) : header).split(',', MAX_ENTRIES + 1);
  // A cut header ends in a fragment ("de-C" of "de-CH;q=0.5") whose weight is unknown.
  if (truncated || parts.length > MAX_ENTRIES) parts.pop();
  return parts.join(',');
}
