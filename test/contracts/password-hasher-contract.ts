// What every PasswordHasher promises (src/core/accounts/password-hasher.ts), as sign-in, the
// redirect password and the statistics password rely on it: run against argon2 and the core's
// reversible fake (unit tier: neither needs a server).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PasswordHasher } from '../../src/core/accounts/password-hasher.ts';

export function describePasswordHasherContract(name: string, hasher: PasswordHasher): void {
  describe(`${name}: the PasswordHasher contract`, () => {
    test('a hash verifies its password and no other; it is not the password itself', async () => {
      const stored = await hasher.hash('correct horse');
      assert.notEqual(stored, 'correct horse');
      assert.equal(await hasher.verify(stored, 'correct horse'), true);
      assert.equal(await hasher.verify(stored, 'Correct horse'), false);
      assert.equal(await hasher.verify(stored, ''), false);
    });

    test('passwords beyond ASCII and the empty one hash and verify', async () => {
      for (const password of ['', 'pässwörd 🔑', ' spaced ']) {
        assert.equal(await hasher.verify(await hasher.hash(password), password), true, JSON.stringify(password));
      }
    });

    test('a hash it cannot read is false, never an error', async () => {
      for (const stored of ['', 'not a hash', '$argon2id$v=19$broken']) {
        assert.equal(await hasher.verify(stored, 'anything'), false, JSON.stringify(stored));
      }
    });
  });
}
