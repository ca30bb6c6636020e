import { Resolver } from 'node:dns/promises';
import type { DomainOwnershipCheck, OwnershipResult } from '../../core/domains/ownership-check.ts';
import type { DomainVerification } from '../../core/domains/verification.ts';
import { withinTime } from './within-time.ts';

export interface DnsTxtCheckOptions {
  timeoutMs: number;
  /** Same contract as dns.promises.resolveTxt; tests hand in their own records. */
  resolveTxt?: (name: string) => Promise<string[][]>;
}

/** Proof by a TXT record at `_linkpix.<name>` whose text is the token (other records may sit beside it). */
export class DnsTxtCheck implements DomainOwnershipCheck {
  private readonly resolveTxt: (name: string) => Promise<string[][]>;

  constructor(private readonly options: DnsTxtCheckOptions) {
    if (options.resolveTxt) this.resolveTxt = options.resolveTxt;
    else {
      // One try, each bounded: a name nobody answers for must not hold the request for the
      // resolver's default retries. withinTime below is the hard bound whatever happens.
      const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
      this.resolveTxt = (name) => resolver.resolveTxt(name);
    }
  }

  describe(target: DomainVerification): string {
    return `a TXT record ${target.txtName} holding the token`;
  }

  async check(target: DomainVerification): Promise<OwnershipResult> {
    let records: string[][];
    try {
      records = await withinTime(this.resolveTxt(target.txtName), this.options.timeoutMs);
    } catch (error) {
      return { found: false, reason: reasonOf(error) };
    }
    // A long TXT value arrives as several strings of at most 255 bytes: they are one text.
    if (records.some((strings) => strings.join('').trim() === target.token)) return { found: true };
    return {
      found: false,
      reason: records.length === 0 ? 'no TXT record' : `${records.length} TXT record(s), none is the token`,
    };
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'no TXT record';
  if (code === 'ETIMEOUT' || code === 'ETIMEDOUT') return 'the DNS query timed out';
  return typeof code === 'string' ? `DNS error ${code}` : 'DNS error';
}
