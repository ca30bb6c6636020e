/**
 * The fast lane's reading of an HTTP/1.1 request head, straight off the socket's bytes. It
 * takes only the plainest shape of request, and declines (null) everything else, which node:http
 * then reads with llhttp from the same bytes: so the lane never reads a request otherwise than
 * Node would, it only reads fewer of them. What it takes (RFC 9112):
 *
 * - `GET` or `HEAD`, an origin-form target (`/…`) of printable ASCII but `#` (a fragment is
 *   refused: malformed-request.ts), `HTTP/1.1`;
 * - header lines `name:value` with a token for a name and tab or printable ASCII for a value
 *   (no obs-fold, no obs-text, no bare LF), CRLF line ends, at most 16 KiB (Node's own limit);
 * - no body and nothing that frames one (Content-Length, Transfer-Encoding), no Expect, no
 *   Upgrade, Connection (and Proxy-Connection, which llhttp reads alike) only if `keep-alive`, a Host;
 * - each header the redirect reads at most once (Node would join or drop repeats).
 */

/** The headers the redirect reads (visitor-from-request.ts, client-address.ts), lower case. */
export type LaneHeaders = {
  host: string | undefined;
  'user-agent': string | undefined;
  'accept-language': string | undefined;
  referer: string | undefined;
  dnt: string | undefined;
  'sec-gpc': string | undefined;
  'x-forwarded-for': string | undefined;
  'x-forwarded-host': string | undefined;
};

export interface RequestHead {
  method: 'GET' | 'HEAD';
  /** The request target, as node:http's `req.url` would hold it. */
  url: string;
  headers: LaneHeaders;
  /** Bytes from the head's first to past its blank line: where a pipelined next request starts. */
  length: number;
}

/** The head is not all there yet. */
export const INCOMPLETE = 'incomplete';

/** node:http's default --max-http-header-size: a longer head is node:http's to refuse (431). */
export const MAX_HEAD_BYTES = 16 * 1024;

const BLANK_LINE = Buffer.from('\r\n\r\n', 'latin1');

// The whole head but its blank line, in the one shape taken. Every byte is checked here once
// (a regular expression: the fastest way through the bytes in JavaScript), so the loop below
// only has to find colons and line ends.
const SHAPE = /^(?:GET|HEAD) \/[\x21\x22\x24-\x7e]* HTTP\/1\.1\r\n(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e]*\r\n)*$/;

/** The header names looked at, lower case: the ones read, then the ones that send the head to node:http. */
const NOTED = [
  'host',
  'user-agent',
  'accept-language',
  'referer',
  'dnt',
  'sec-gpc',
  'x-forwarded-for',
  'x-forwarded-host',
  'connection',
  'proxy-connection',
  'content-length',
  'transfer-encoding',
  'expect',
  'upgrade',
] as const;
type Noted = (typeof NOTED)[number];

/** By length: each name in lower case and as browsers and curl write it ("User-Agent"). */
const NOTED_BY_LENGTH: Array<Array<{ lower: Noted; usual: string }>> = [];
for (const lower of NOTED) {
  const usual = lower
    .replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
    .replace('Dnt', 'DNT')
    .replace('Gpc', 'GPC');
  (NOTED_BY_LENGTH[lower.length] ??= []).push({ lower, usual });
}

/**
 * Reads the request head that starts at `start` in `bytes`: the head, INCOMPLETE when its
 * blank line has not arrived (and it is still under MAX_HEAD_BYTES), or null when the fast
 * lane does not take it.
 */
export function readRequestHead(bytes: Buffer, start: number): RequestHead | typeof INCOMPLETE | null {
  const blank = bytes.indexOf(BLANK_LINE, start);
  if (blank === -1) return bytes.length - start >= MAX_HEAD_BYTES ? null : INCOMPLETE;
  const length = blank + 4 - start;
  if (length > MAX_HEAD_BYTES) return null;
  // Latin-1, as node:http decodes heads; SHAPE lets only ASCII through anyway.
  const head = bytes.toString('latin1', start, blank + 2);
  if (!SHAPE.test(head)) return null;

  const lineEnd = head.indexOf('\r\n');
  const method = head.charCodeAt(0) === 71 /* G */ ? 'GET' : 'HEAD';
  const url = head.slice(method.length + 1, lineEnd - 9 /* " HTTP/1.1" */);
  const headers: LaneHeaders = {
    host: undefined,
    'user-agent': undefined,
    'accept-language': undefined,
    referer: undefined,
    dnt: undefined,
    'sec-gpc': undefined,
    'x-forwarded-for': undefined,
    'x-forwarded-host': undefined,
  };
  for (let at = lineEnd + 2; at < head.length;) {
    const colon = head.indexOf(':', at);
    const end = head.indexOf('\r\n', colon);
    const name = notedName(head, at, colon);
    if (name !== null) {
      // Optional whitespace around a value is not part of it (SHAPE allows only tab and space).
      let from = colon + 1;
      let to = end;
      while (from < to && isBlank(head.charCodeAt(from))) from++;
      while (to > from && isBlank(head.charCodeAt(to - 1))) to--;
      if (!note(headers, name, head.slice(from, to))) return null;
    }
    at = end + 2;
  }
  if (headers.host === undefined) return null;
  return { method, url, headers, length };
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** The noted name the header at `at` has, in any case, or null. */
function notedName(head: string, at: number, colon: number): Noted | null {
  const candidates = NOTED_BY_LENGTH[colon - at];
  if (candidates === undefined) return null;
  for (const { lower, usual } of candidates) if (head.startsWith(usual, at) || head.startsWith(lower, at)) return lower;
  // Any other case ("USER-AGENT"): rare, so only then a lower-case copy.
  const first = head.charCodeAt(at) | 0x20;
  for (const { lower } of candidates) if (lower.charCodeAt(0) === first && head.slice(at, colon).toLowerCase() === lower) return lower;
  return null;
}

/** Keeps a header the redirect reads; false when the head is not the fast lane's to answer. */
function note(headers: LaneHeaders, name: Noted, value: string): boolean {
  switch (name) {
    case 'host':
    case 'user-agent':
    case 'accept-language':
    case 'referer':
    case 'dnt':
    case 'sec-gpc':
    case 'x-forwarded-for':
    case 'x-forwarded-host':
      if (headers[name] !== undefined) return false;
      headers[name] = value;
      return true;
    // llhttp reads Proxy-Connection as it reads Connection (a close ends the connection).
    case 'connection':
    case 'proxy-connection':
      return value.toLowerCase() === 'keep-alive';
    default: // content-length, transfer-encoding, expect, upgrade
      return false;
  }
}
