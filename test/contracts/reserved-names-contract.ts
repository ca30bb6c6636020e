// What every ReservedNames promises (src/core/domains/reserved-names.ts), as name claims and the
// CLI's `domains reserve` rely on it: run against the in-memory fake (unit) and the SQL store on
// both engines. Names reach it normalised by the core.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReservedNames } from '../../src/core/domains/reserved-names.ts';

let made = 0;
const fresh = () => `r${process.pid.toString(36)}${Date.now().toString(36)}${(++made).toString(36)}.example.com`;

export function describeReservedNamesContract(name: string, make: () => ReservedNames): void {
  describe(`${name}: the ReservedNames contract`, () => {
    test('reserve says whether it was new; isReserved sees it, from another instance too', async () => {
      const [one, other] = [make(), make()];
      const host = fresh();
      assert.equal(await one.isReserved(host), false);
      assert.equal(await one.reserve(host, 1000), true);
      assert.equal(await one.reserve(host, 2000), false);
      assert.equal(await other.isReserved(host), true);
      assert.equal(await other.isReserved(fresh()), false);
      assert.equal(await one.isReserved(`x${host}`), false, 'a name, not a suffix');
    });

    test('unreserve says whether it was reserved; the name is free after', async () => {
      const names = make();
      const host = fresh();
      assert.equal(await names.unreserve(host), false);
      await names.reserve(host, 1000);
      assert.equal(await names.unreserve(host), true);
      assert.equal(await names.isReserved(host), false);
      assert.equal(await names.unreserve(host), false);
      assert.equal(await names.reserve(host, 3000), true);
    });
  });
}
