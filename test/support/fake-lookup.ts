import type { LookupFunction } from 'node:net';

/** A lookup answering from a fixed table, in dns.lookup's calling styles. */
export function fakeLookup(table: Record<string, string[]>, calls: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    calls.push(hostname);
    const addresses = (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => {
      const first = addresses[0];
      if (first === undefined) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        callback(error, '');
      } else if (options.all) {
        callback(null, addresses);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}
