import type { LookupFunction } from 'node:net';
import { DnsTxtCheck } from '../../src/adapters/domain-ownership/dns-txt-check.ts';
import { HttpFileCheck } from '../../src/adapters/domain-ownership/http-file-check.ts';
import type { DomainOwnershipCheck } from '../../src/core/domains/ownership-check.ts';

const notFound = (name: string) => Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });

/**
 * The DNS the domain checks see in tests: TXT records and addresses set by the test, every
 * other name unknown at once (a real lookup of a made-up name can hang for seconds here).
 */
export class FakeDns {
  private readonly txt = new Map<string, string[][]>();
  private readonly addresses = new Map<string, string>();
  /** Names asked for, in order: lets a test see that a check did (or did not) run. */
  readonly asked: string[] = [];

  publishTxt(name: string, ...strings: string[]): void {
    const records = this.txt.get(name) ?? [];
    records.push(strings);
    this.txt.set(name, records);
  }

  pointAt(name: string, address: string): void {
    this.addresses.set(name, address);
  }

  resolveTxt = async (name: string): Promise<string[][]> => {
    this.asked.push(`TXT ${name}`);
    const records = this.txt.get(name);
    if (!records) throw notFound(name);
    return records;
  };

  lookup: LookupFunction = (hostname, options, callback) => {
    this.asked.push(`A ${hostname}`);
    const address = this.addresses.get(hostname);
    if (address === undefined) callback(notFound(hostname), '');
    else if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };

  /** The production checks, reading this DNS; `port` stands in for 80 (a local listener's). */
  checks(options: { allowPrivate?: boolean; port?: number; timeoutMs?: number } = {}): DomainOwnershipCheck[] {
    const timeoutMs = options.timeoutMs ?? 2000;
    return [
      new DnsTxtCheck({ timeoutMs, resolveTxt: this.resolveTxt }),
      new HttpFileCheck({
        timeoutMs,
        allowPrivate: options.allowPrivate ?? false,
        lookup: this.lookup,
        ...(options.port ? { port: options.port } : {}),
      }),
    ];
  }
}
