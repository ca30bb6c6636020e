import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import type { CheckAnswer } from '../../core/health/health.ts';
import type { DestinationChecker } from '../../core/health/ports.ts';
import { guardedLookup, isPublicAddress } from '../shared/outbound/address-policy.ts';
import { failureReason } from './failure-reason.ts';
import { HostGate } from './host-gate.ts';

export interface HttpDestinationCheckerOptions {
  /** Lets checks reach loopback, private and other non-public addresses (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** APP_URL, named in the User-Agent so a site's owner can see who asks. */
  appUrl: string;
  /** Budget of one request: connect, the answer's head. */
  timeoutMs: number;
  /** Least time between the end of one request to a host and the start of the next. */
  hostSpacingMs: number;
  /** Requests at once, across hosts. */
  maxInFlight: number;
  /** Replaces the address check implied by allowPrivate; meant for tests. */
  isAllowedAddress?: (ip: string) => boolean;
  /** Replaces DNS resolution (same contract as dns.lookup); meant for tests. */
  lookup?: LookupFunction;
}

const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** HEAD refused: the check asks again with GET. */
const HEAD_REFUSED = new Set([405, 501]);

class Refused extends Error {
  readonly code = 'EADDRBLOCKED';
}

/**
 * Checks destinations with undici (docs/design/health.md): HEAD, or GET where HEAD is refused,
 * redirects followed by hand (at most 10, a loop refused) with each hop held to the
 * outbound-address policy, as the title fetcher and the webhooks are: the address checked in the
 * socket's lookup is the one connected to, IP literals are checked before the request. Every
 * request goes through the host gate. A check whose signal is aborted ends at once, its gate wait
 * and its request alike, and answers a failure that is never recorded (the round is stopping).
 */
export class HttpDestinationChecker implements DestinationChecker {
  private readonly isAllowed: (ip: string) => boolean;
  private readonly agent: Agent;
  private readonly gate: HostGate;
  private readonly userAgent: string;

  constructor(private readonly options: HttpDestinationCheckerOptions) {
    this.isAllowed = options.isAllowedAddress ?? (options.allowPrivate ? () => true : isPublicAddress);
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.isAllowed, options.lookup ?? dnsLookup) } });
    this.gate = new HostGate(options.hostSpacingMs, options.maxInFlight);
    this.userAgent = `linkpix-health/1 (+${options.appUrl})`;
  }

  async check(url: string, signal?: AbortSignal): Promise<CheckAnswer> {
    const seen = new Set<string>();
    let target: URL;
    try {
      target = this.allowed(new URL(url));
    } catch (error) {
      return { reason: failureReason(error) };
    }
    for (let redirects = 0; ; redirects++) {
      seen.add(target.href);
      let answer: { code: number; location: string | undefined };
      try {
        answer = await this.ask(target, signal);
      } catch (error) {
        return { reason: failureReason(error) };
      }
      if (!REDIRECT_STATUSES.has(answer.code) || answer.location === undefined) return { code: answer.code };
      if (redirects >= MAX_REDIRECTS) return { reason: 'redirects' };
      let next: URL;
      try {
        next = this.allowed(new URL(answer.location, target));
      } catch (error) {
        return { reason: failureReason(error) };
      }
      if (seen.has(next.href)) return { reason: 'redirects' };
      target = next;
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** HEAD, then GET where HEAD is refused. */
  private async ask(target: URL, signal?: AbortSignal): Promise<{ code: number; location: string | undefined }> {
    const head = await this.once(target, 'HEAD', signal);
    return HEAD_REFUSED.has(head.code) ? this.once(target, 'GET', signal) : head;
  }

  private once(
    target: URL,
    method: 'HEAD' | 'GET',
    signal: AbortSignal | undefined,
  ): Promise<{ code: number; location: string | undefined }> {
    const asked = async () => {
      // A timer of our own: undici holds an abort back until the socket has connected, and a
      // lookup that hangs must not hold the check. A stop aborts it the same way.
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
      const stop = () => controller.abort();
      signal?.addEventListener('abort', stop, { once: true });
      if (signal?.aborted) controller.abort();
      try {
        const response = await Promise.race([
          request(target, {
            dispatcher: this.agent,
            method,
            headers: { 'user-agent': this.userAgent, accept: '*/*' },
            signal: controller.signal,
            headersTimeout: this.options.timeoutMs,
          }),
          rejectOnAbort(controller.signal),
        ]);
        // Only the status matters: the body is dropped unread.
        response.body.on('error', () => undefined);
        response.body.destroy();
        return { code: response.statusCode, location: header(response.headers, 'location') };
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        controller.abort();
      }
    };
    return this.gate.run(target.host, asked, signal);
  }

  /** Only http(s), and no IP literal the policy refuses (sockets skip the lookup for those). */
  private allowed(url: URL): URL {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refused(`${url.protocol} is not checked`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !this.isAllowed(host)) throw new Refused(`${host} is not a public address`);
    return url;
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) =>
    signal.addEventListener(
      'abort',
      () => reject(Object.assign(new Error('timed out'), { code: 'UND_ERR_HEADERS_TIMEOUT' })),
      { once: true },
    ),
  );
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
