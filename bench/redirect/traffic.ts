/**
 * The traffic both servers receive: which aliases, with which visitor headers. One description,
 * turned into a wrk Lua script or autocannon requests, so either generator sends the same mix.
 */

/** Link n is `${ALIAS_PREFIX}${n}`, n = 1…links; its kind is n % 10 (see seed.ts). */
export const ALIAS_PREFIX = 'b';

/** Non-bot browsers on each platform a link can target (a bot's click does not count on the link). */
export const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
] as const;

/** Public addresses in the countries the links target (US GB DE FR JP) and elsewhere, one IPv6, one private. */
export const CLIENT_ADDRESSES = [
  '8.8.8.8',
  '81.2.69.142',
  '5.9.0.1',
  '195.154.0.1',
  '133.0.0.1',
  '200.160.0.8',
  '41.0.0.1',
  '1.1.1.1',
  '49.0.0.1',
  '89.160.20.112',
  '2001:4860:4860::8888',
  '10.1.2.3',
  '9.9.9.9',
] as const;

export const ACCEPT_LANGUAGES = [
  'en-US,en;q=0.9',
  'de-DE,de;q=0.9,en;q=0.8',
  'fr-FR,fr;q=0.9',
  'ja-JP,ja;q=0.9,en;q=0.5',
  'pt-BR,pt;q=0.9,en;q=0.6',
] as const;

/** '' sends no Referer. */
export const REFERERS = [
  '',
  'https://t.co/abc123',
  '',
  'https://www.google.com/',
  'android-app://com.google.android.gm/',
] as const;

/** '' sends no query; the others are carried over to the destination. */
export const QUERIES = ['', '', '', '?utm_source=newsletter&utm_medium=email', '', '?ref=bench'] as const;

/**
 * The set of links requested: `hot` distinct links of 1…links, spread over the whole table by a
 * stride prime to 10 and to links (so each kind n % 10 gets its share, and no two repeat).
 */
export function linkNumber(j: number, links: number, hot: number, stride = 7919): number {
  return 1 + (((j % hot) * stride) % links);
}

export interface VisitRequest {
  path: string;
  headers: Record<string, string>;
}

/**
 * Which links a run visits: all of them, or (a database seeded with --rules, seed.ts) only the
 * even ones, plain, or only the odd ones, with twenty rules each: the same visitors either way.
 */
export type LinkSet = 'all' | 'plain' | 'rules';

/** The link request j of the cycle visits, within its set. */
export function setLinkNumber(j: number, links: number, hot: number, set: LinkSet): number {
  if (set === 'all') return linkNumber(j, links, hot);
  const half = linkNumber(j, Math.floor(links / 2), hot);
  return set === 'plain' ? 2 * half : 2 * half - 1;
}

/** Request j of the cycle (j = 0…hot-1): its link, and visitor headers rotating independently. */
export function visitRequest(j: number, links: number, hot: number, set: LinkSet = 'all'): VisitRequest {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENTS[j % USER_AGENTS.length]!,
    'x-forwarded-for': CLIENT_ADDRESSES[j % CLIENT_ADDRESSES.length]!,
    'accept-language': ACCEPT_LANGUAGES[j % ACCEPT_LANGUAGES.length]!,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  };
  const referer = REFERERS[j % REFERERS.length]!;
  if (referer !== '') headers.referer = referer;
  return { path: `/${ALIAS_PREFIX}${setLinkNumber(j, links, hot, set)}${QUERIES[j % QUERIES.length]!}`, headers };
}
