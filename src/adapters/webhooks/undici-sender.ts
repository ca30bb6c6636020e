import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import type { WebhookSender } from '../../core/webhooks/ports.ts';
import { guardedLookup, isPublicAddress } from '../shared/outbound/address-policy.ts';

export interface UndiciSenderOptions {
  /** Lets deliveries reach loopback, private and other non-public addresses (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Budget of one attempt: connect, send, the answer's head and body. */
  timeoutMs: number;
  /** Replaces DNS resolution (same contract as dns.lookup); meant for tests. */
  lookup?: LookupFunction;
}

const USER_AGENT = 'linkpix-webhooks/1';

/**
 * POSTs deliveries with undici, under the outbound-address policy (shared/outbound/): the address checked in
 * the socket's lookup is the one connected to; IP literals, which skip the lookup, are checked
 * first. Redirects are not followed: a receiver answers where it was registered.
 */
export class UndiciSender implements WebhookSender {
  private readonly isAllowed: (ip: string) => boolean;
  private readonly agent: Agent;

  constructor(private readonly options: UndiciSenderOptions) {
    this.isAllowed = options.allowPrivate ? () => true : isPublicAddress;
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.isAllowed, options.lookup ?? dnsLookup) } });
  }

  async send(url: string, headers: Record<string, string>, body: string, stop?: AbortSignal): Promise<number> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !this.isAllowed(host)) throw new Error(`${host} is not a public address`);
    const response = await request(target, {
      dispatcher: this.agent,
      method: 'POST',
      headers: { ...headers, 'user-agent': USER_AGENT },
      body,
      signal: stop
        ? AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), stop])
        : AbortSignal.timeout(this.options.timeoutMs),
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
    // The answer's body says nothing we act on; reading it frees the connection for reuse.
    await response.body.dump();
    return response.statusCode;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
