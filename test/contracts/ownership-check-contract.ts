// What every DomainOwnershipCheck promises (src/core/domains/ownership-check.ts), as a domain's
// verification relies on it. The DNS TXT check and the HTTP file check prove different things
// (a record at _linkpix.<name>, a file under http://<name>/.well-known/linkpix/); the suite holds
// what they share: the token published in the check's place is found, anything else there, or
// nothing, or a place that cannot be reached or never answers, is "not found" with a reason —
// bounded in time and never an error — and describe names where the token is looked for.
// Run against both checks on a fake DNS and a server on 127.0.0.1 (unit tier).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainOwnershipCheck } from '../../src/core/domains/ownership-check.ts';
import { verificationOf, type DomainVerification } from '../../src/core/domains/verification.ts';

export interface OwnershipCheckSubject {
  check: DomainOwnershipCheck;
  /** Puts `text` where the check looks for the target's token. */
  publish: (target: DomainVerification, text: string) => void;
  /** Makes the target's place fail at once (an unknown name, a server error). */
  fail: (target: DomainVerification) => void;
  /** Makes the target's place never answer. */
  hang: (target: DomainVerification) => void;
  /** Where the check looks, as describe should name it. */
  place: (target: DomainVerification) => string;
}

let made = 0;
const fresh = () =>
  verificationOf({
    name: `own${(++made).toString(36)}.example.com`,
    verificationToken: `tok${made}_0123456789abcdefgh`,
  });

const notFound = (result: Awaited<ReturnType<DomainOwnershipCheck['check']>>) => {
  assert.equal(result.found, false);
  assert.ok(!result.found && result.reason.trim().length > 0, 'a reason is given');
};

export function describeOwnershipCheckContract(name: string, make: () => OwnershipCheckSubject): void {
  describe(`${name}: the DomainOwnershipCheck contract`, () => {
    test('the token published in the check’s place is a proof; describe names that place', async () => {
      const s = make();
      const target = fresh();
      s.publish(target, target.token);
      assert.deepEqual(await s.check.check(target), { found: true });
      assert.ok(s.check.describe(target).includes(s.place(target)), s.check.describe(target));
    });

    test('nothing published, something else, or another domain’s token: not found, with a reason', async () => {
      const s = make();
      const [empty, other, foreign, owner] = [fresh(), fresh(), fresh(), fresh()];
      s.publish(other, 'something else');
      s.publish(foreign, owner.token);
      for (const target of [empty, other, foreign]) notFound(await s.check.check(target));
    });

    test('a place that fails or never answers: not found, with a reason, never an error', async () => {
      const s = make();
      const [failing, hanging] = [fresh(), fresh()];
      s.fail(failing);
      s.hang(hanging);
      notFound(await s.check.check(failing));
      notFound(await s.check.check(hanging));
    });
  });
}
