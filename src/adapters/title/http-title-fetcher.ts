import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, request, type Dispatcher } from 'undici';
import type { PageFacts, TitleFetcher } from '../../core/links/title-fetcher.ts';
import { guardedLookup, isPublicAddress } from '../shared/outbound/address-policy.ts';
import { decodePage } from './decode-page.ts';
import { extractTitle, pageFactsOf, TitleScanner } from './extract-title.ts';

export interface HttpTitleFetcherOptions {
  /** Lets the fetcher reach loopback, private and other non-public addresses. */
  allowPrivate: boolean;
  /** Budget for the whole fetch: DNS, connects, redirects and body. */
  timeoutMs?: number;
  /** Most (decoded) body bytes read while looking for the title. */
  maxBytes?: number;
  userAgent?: string;
  /** Replaces the address check implied by allowPrivate; meant for tests. */
  isAllowedAddress?: (ip: string) => boolean;
  /** Replaces DNS resolution (same contract as dns.lookup); meant for tests. */
  lookup?: LookupFunction;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; linkpix title fetcher)';
const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
// The HTML standard looks for a <meta> charset in this many bytes.
const CHARSET_SNIFF_BYTES = 1024;

/**
 * Fetches pages over http(s) with undici to learn their <title>, refusing to talk to non-public
 * addresses unless allowed. The address check runs inside the socket's DNS lookup (undici's
 * connector hands `lookup` to net.connect), so the address that was checked is the one
 * connected to; IP literals, which never reach a lookup, are checked before each request.
 */
export class HttpTitleFetcher implements TitleFetcher {
  private readonly isAllowed: (ip: string) => boolean;
  private readonly lookup: LookupFunction;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(options: HttpTitleFetcherOptions) {
    this.isAllowed = options.isAllowedAddress ?? (options.allowPrivate ? () => true : isPublicAddress);
    this.lookup = guardedLookup(this.isAllowed, options.lookup ?? dnsLookup);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  }

  async fetchTitle(url: string): Promise<string | null> {
    const page = await this.fetchHead(url, false);
    return page && extractTitle(decodePage(page.body, page.contentType));
  }

  /** The title and og: tags, read to the end of the page's head (docs/design/social-cards.md). */
  async fetchPage(url: string): Promise<PageFacts | null> {
    const page = await this.fetchHead(url, true);
    if (page === null) return null;
    const scanner = new TitleScanner();
    scanner.writeHead(decodePage(page.body, page.contentType));
    return pageFactsOf(scanner, page.url);
  }

  /** The start of the page: to its title, or to the end of its head (wholeHead); null when none was read. */
  private async fetchHead(url: string, wholeHead: boolean): Promise<FetchedHead | null> {
    // One abort signal bounds everything; a hung getaddrinfo keeps its thread busy, but the
    // caller gets its answer on time regardless.
    // (A timer of our own rather than AbortSignal.timeout, whose unreferenced timer would let a
    // process with nothing else to do exit while a lookup hangs.)
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    // An agent per fetch: its sockets all close when the fetch is over, whichever way it ends.
    const agent = new Agent({ connect: { lookup: this.lookup } });
    try {
      // undici holds an abort back until the socket has connected; a lookup that hangs must not.
      return await Promise.race([
        this.follow(url, agent, controller.signal, wholeHead),
        rejectOnAbort(controller.signal),
      ]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      controller.abort();
      void agent.destroy().catch(() => undefined);
    }
  }

  private async follow(
    url: string,
    agent: Agent,
    signal: AbortSignal,
    wholeHead: boolean,
  ): Promise<FetchedHead | null> {
    let target = this.checkUrl(url);
    for (let redirects = 0; target !== null; redirects++) {
      const response = await request(target, {
        dispatcher: agent,
        method: 'GET',
        headers: { 'user-agent': this.userAgent, accept: 'text/html, application/xhtml+xml;q=0.9' },
        signal,
      });
      const { statusCode: status, headers } = response;
      if (REDIRECT_STATUSES.has(status)) {
        discard(response.body);
        const location = header(headers, 'location');
        if (location === undefined || redirects >= MAX_REDIRECTS) return null;
        target = this.checkUrl(new URL(location, target).href);
        continue;
      }
      const contentType = header(headers, 'content-type') ?? '';
      if (status < 200 || status > 299 || !isHtml(contentType)) {
        discard(response.body);
        return null;
      }
      const body = await this.readHead(response.body, header(headers, 'content-encoding'), wholeHead);
      return { body, contentType, url: target.href };
    }
    return null;
  }

  /** Rejects what must never be requested, before any socket exists. */
  private checkUrl(url: string): URL | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    // Sockets connect to IP literals without calling lookup, so they have to be checked here.
    // URL has already canonicalised forms like 0x7f.1; it keeps IPv6 hosts in brackets.
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !this.isAllowed(host)) return null;
    return parsed;
  }

  /** The body up to the end of the title (or of the head), the byte cap or the end, whichever comes first. */
  private async readHead(raw: Readable, contentEncoding: string | undefined, wholeHead: boolean): Promise<Buffer> {
    const body = decoded(raw, contentEncoding);
    const scanner = new TitleScanner();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        const piece = chunk.subarray(0, this.maxBytes - size);
        chunks.push(piece);
        size += piece.length;
        // latin1 maps bytes 1:1, so ASCII markup is found whatever the charset. Past the title,
        // read on to the end of the bytes a <meta charset> may be in.
        const text = piece.toString('latin1');
        const complete = wholeHead ? scanner.writeHead(text) : scanner.write(text);
        if ((complete && size >= CHARSET_SNIFF_BYTES) || size >= this.maxBytes) break;
      }
    } finally {
      discard(raw);
      discard(body);
    }
    return Buffer.concat(chunks);
  }
}

/** The start of a page as read, with what it needs to be decoded and its links resolved. */
interface FetchedHead {
  body: Buffer;
  contentType: string;
  /** Where it was read, after redirects. */
  url: string;
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }),
  );
}

/** Drops a body unread; undici reports that as an abort error, which is expected here. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isHtml(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return HTML_TYPES.has(mediaType);
}

/**
 * We never ask for compression, but some servers send it anyway. Hand-written rather than
 * undici's decompress interceptor, which is experimental and warns on use (docs/architecture.md).
 */
function decoded(body: Readable, contentEncoding: string | undefined): Readable {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  const create = DECODERS.get(encoding);
  if (create === undefined) throw new Error(`unsupported content-encoding ${encoding}`);
  // pipeline passes an error of the body (an abort) on to the decoder being read.
  return pipeline(body, create(), () => undefined);
}

const DECODERS = new Map<string, () => Readable & NodeJS.WritableStream>([
  ['gzip', zlib.createGunzip],
  ['x-gzip', zlib.createGunzip],
  ['deflate', zlib.createInflate],
  ['br', zlib.createBrotliDecompress],
]);
