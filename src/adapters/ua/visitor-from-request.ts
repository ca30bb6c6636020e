import type { Visitor } from '../../core/redirect/visitor.ts';
import { parseAcceptLanguage } from '../../core/targeting/accept-language.ts';
import { describeUserAgent } from './user-agent.ts';

export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface VisitorInput {
  /** The client address as the server resolved it (request.ip, which honours TRUST_PROXY). */
  ip: string;
  /** Header names in lower case, as Node delivers them. */
  headers: RequestHeaders;
}

const MAX_REFERER_LENGTH = 2048;

// Browsers send a handful of distinct Accept-Language values: parsing each once saves the
// redirect a few microseconds a visit. Bounded, oldest first out.
const LANGUAGE_CACHE_SIZE = 1000;
const languageCache = new Map<string, readonly string[]>();
const NO_LANGUAGES: readonly string[] = Object.freeze([]);

function languagesOf(header: string | undefined): string[] {
  if (!header) return NO_LANGUAGES as string[];
  let languages = languageCache.get(header);
  if (languages === undefined) {
    languages = Object.freeze(parseAcceptLanguage(header));
    if (languageCache.size >= LANGUAGE_CACHE_SIZE) languageCache.delete(languageCache.keys().next().value!);
    languageCache.set(header, languages);
  }
  return languages as string[];
}

/** A client address's country: the geo adapter's lookup, handed in by whoever reads the visit. */
interface Countries {
  country(address: string): string | null;
}

/** Everything the redirect needs to know about a visit, derived once. The address is not kept. */
export function visitorFrom(input: VisitorInput, deps: { countries: Countries }): Visitor {
  const { headers } = input;
  const ua = describeUserAgent(first(headers['user-agent']));
  const acceptLanguage = headers['accept-language'];
  return {
    country: deps.countries.country(input.ip),
    platform: ua.platform,
    languages: languagesOf(Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage),
    browser: ua.browser,
    device: ua.device,
    isBot: ua.isBot,
    refusesTracking: isOne(headers['dnt']) || isOne(headers['sec-gpc']),
    referrerHost: hostOf(first(headers['referer'])),
  };
}

/** A header's value, the first one if it came more than once. */
export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isOne(value: string | string[] | undefined): boolean {
  // Read on every visit, and nearly always absent: no array or closure for a missing header.
  if (value === undefined) return false;
  if (typeof value === 'string') return value.trim() === '1';
  return value.some((v) => v.trim() === '1');
}

// Parsing a URL is the dearest step of a visit; the same referrers come back (a post, a search).
const REFERRER_CACHE_SIZE = 1000;
const referrerHosts = new Map<string, string | null>();

function hostOf(referer: string | undefined): string | null {
  if (referer === undefined || referer === '' || referer.length > MAX_REFERER_LENGTH) return null;
  const known = referrerHosts.get(referer);
  if (known !== undefined) return known;
  const host = parseHost(referer);
  if (referrerHosts.size >= REFERRER_CACHE_SIZE) referrerHosts.delete(referrerHosts.keys().next().value!);
  referrerHosts.set(referer, host);
  return host;
}

function parseHost(referer: string): string | null {
  let url: URL;
  try {
    url = new URL(referer.trim());
  } catch {
    return null;
  }
  // Non-special schemes (android-app://com.google.android.gm) keep their host's case.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host === '' ? null : host;
}
