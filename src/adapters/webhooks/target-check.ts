import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookTargetCheck } from '../../core/webhooks/ports.ts';
import { isPublicAddress } from '../shared/outbound/address-policy.ts';

/**
 * Refuses, at creation, a webhook whose host is or resolves to a non-public address (any of its
 * answers), or does not resolve. Delivery checks again in the socket's lookup (UndiciSender),
 * since DNS answers may change after this.
 */
export class AddressTargetCheck implements WebhookTargetCheck {
  private readonly lookup: LookupFunction;

  constructor(private readonly options: { allowPrivate: boolean; lookup?: LookupFunction }) {
    this.lookup = options.lookup ?? dnsLookup;
  }

  async reachable(url: string): Promise<boolean> {
    if (this.options.allowPrivate) return true;
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) return isPublicAddress(host);
    const answers = await new Promise<string[] | null>((resolve) => {
      this.lookup(host, { all: true }, (error, found) => {
        if (error) resolve(null);
        else resolve(typeof found === 'string' ? [found] : found.map((a) => a.address));
      });
    });
    return answers !== null && answers.length > 0 && answers.every(isPublicAddress);
  }
}
