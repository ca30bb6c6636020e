import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { DomainOwnershipCheck, OwnershipResult } from '../../core/domains/ownership-check.ts';
import type { DomainVerification } from '../../core/domains/verification.ts';
import { guardedLookup, isPublicAddress } from '../shared/outbound/address-policy.ts';

export interface HttpFileCheckOptions {
  /** Lets the check reach loopback, private and other non-public addresses. */
  allowPrivate: boolean;
  /** Budget for the whole check: DNS, connects, redirects and body. */
  timeoutMs: number;
  /** Replaces DNS resolution (same contract as dns.lookup); tests point names at 127.0.0.1. */
  lookup?: LookupFunction;
  /** Connects to this port whatever the URL says; tests serve the file on a random port. */
  port?: number;
}

const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The token and some whitespace; a longer body is not the token. */
const MAX_BODY_BYTES = 1024;

/**
 * Proof by a file at `http://<name>/.well-known/linkpix/<token>` whose body is the token.
 * Redirects are followed a few times (to https, say), each hop under the outbound-address policy
 * (shared/outbound/): the address checked is the one connected to (guardedLookup).
 */
export class HttpFileCheck implements DomainOwnershipCheck {
  private readonly isAllowed: (ip: string) => boolean;
  private readonly lookup: LookupFunction;

  constructor(private readonly options: HttpFileCheckOptions) {
    this.isAllowed = options.allowPrivate ? () => true : isPublicAddress;
    this.lookup = guardedLookup(this.isAllowed, options.lookup ?? dnsLookup);
  }

  describe(target: DomainVerification): string {
    return `the file ${target.fileUrl} holding the token`;
  }

  async check(target: DomainVerification): Promise<OwnershipResult> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      return await this.follow(new URL(target.fileUrl), target.token, controller.signal);
    } catch (error) {
      return {
        found: false,
        reason: controller.signal.aborted ? `no answer within ${this.options.timeoutMs} ms` : reasonOf(error),
      };
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  private async follow(start: URL, token: string, signal: AbortSignal): Promise<OwnershipResult> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const refusal = this.refusalOf(url);
      if (refusal) return { found: false, reason: refusal };
      const response = await this.request(url, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location !== undefined && redirects < MAX_REDIRECTS) {
        response.destroy();
        url = new URL(response.headers.location, url);
        continue;
      }
      if (status !== 200) {
        response.destroy();
        return { found: false, reason: `HTTP ${status}` };
      }
      const body = await readAtMost(response, MAX_BODY_BYTES, signal);
      return body !== null && body.toString('utf8').trim() === token
        ? { found: true }
        : { found: false, reason: 'the body is not the token' };
    }
  }

  private refusalOf(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `a redirect to ${url.protocol}`;
    // Node connects to IP literals without calling lookup: they are checked here.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !this.isAllowed(host)) return 'the address is not allowed';
    return null;
  }

  private request(url: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const port = this.options.port ?? (url.port === '' ? undefined : Number(url.port));
      const request = client.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { 'user-agent': 'linkpix domain verification', accept: 'text/plain, */*' },
          // A fresh agent per request: no pooled socket can outlive its check.
          agent: false,
          lookup: this.lookup,
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end();
    });
  }
}

/** The body, or null when it is longer than the limit; a body that stalls ends with the signal. */
function readAtMost(response: http.IncomingMessage, limit: number, signal: AbortSignal): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      response.destroy();
      reject(new Error('aborted'));
    };
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('close', () => signal.removeEventListener('abort', onAbort));
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        response.destroy();
        resolve(null);
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EADDRBLOCKED':
      return 'the name resolves only to addresses not allowed';
    case 'ENOTFOUND':
      return 'the name does not resolve';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return typeof code === 'string' ? code : 'the request failed';
  }
}
