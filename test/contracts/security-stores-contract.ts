import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChallengeStore, TwoFactorStore } from '../../src/core/security/two-factor-store.ts';
import type { PasswordResetStore } from '../../src/core/security/password-reset-store.ts';

export interface SecurityStoresSubject {
  twoFactor: TwoFactorStore;
  challenges: ChallengeStore;
  resets: PasswordResetStore;
  /** A new person (an account) the stores' rows may belong to. */
  person: () => Promise<number>;
}

let counter = 0;
const unique = (stem: string) =>
  `${stem}-${process.pid}-${++counter}-${Date.now().toString(36)}`.padEnd(64, 'x').slice(0, 64);

/** What the two-factor, challenge and reset stores promise: run against the fakes and the SQL stores on both engines. */
export function describeSecurityStoresContract(name: string, subject: () => SecurityStoresSubject): void {
  describe(`${name}: the two-factor, challenge and password reset stores' contract`, () => {
    test('an enrolment starts unconfirmed, keeps its secret, is confirmed once with its codes, and cannot be restarted once on', async () => {
      const { twoFactor, person } = subject();
      const id = await person();
      assert.equal(await twoFactor.find(id), null);
      assert.equal(await twoFactor.start(id, 'JBSWY3DPEHPK3PXP', 1000), true);
      assert.deepEqual(await twoFactor.find(id), {
        secret: 'JBSWY3DPEHPK3PXP',
        createdAt: 1000,
        confirmedAt: null,
        lastStep: null,
      });
      assert.equal(await twoFactor.start(id, 'GEZDGNBVGY3TQOJQ', 2000), true, 'an unconfirmed one is replaced');
      assert.equal((await twoFactor.find(id))?.secret, 'GEZDGNBVGY3TQOJQ');
      assert.equal(await twoFactor.acceptStep(id, 5), false, 'no step is accepted before the confirmation');
      assert.equal(await twoFactor.confirm(id, 7, ['a', 'b', 'c'], 3000), true);
      assert.equal(await twoFactor.confirm(id, 8, ['d'], 3000), false, 'confirmed once');
      assert.deepEqual(await twoFactor.find(id), {
        secret: 'GEZDGNBVGY3TQOJQ',
        createdAt: 2000,
        confirmedAt: 3000,
        lastStep: 7,
      });
      assert.equal(await twoFactor.recoveryCodesLeft(id), 3);
      assert.equal(await twoFactor.start(id, 'JBSWY3DPEHPK3PXP', 4000), false, 'not while it is on');
    });

    test('a step is accepted once and only when newer; a recovery code is used once; remove forgets both', async () => {
      const { twoFactor, person } = subject();
      const id = await person();
      const other = await person();
      await twoFactor.start(id, 'JBSWY3DPEHPK3PXP', 1000);
      await twoFactor.confirm(id, 10, ['r1', 'r2'], 1000);
      assert.equal(await twoFactor.acceptStep(id, 10), false, 'the confirming step is spent');
      assert.equal(await twoFactor.acceptStep(id, 11), true);
      assert.equal(await twoFactor.acceptStep(id, 11), false);
      assert.equal(await twoFactor.acceptStep(id, 9), false, 'an older step never');
      assert.equal(await twoFactor.useRecoveryCode(other, 'r1', 2000), false, "another person's code is not theirs");
      assert.equal(await twoFactor.useRecoveryCode(id, 'r1', 2000), true);
      assert.equal(await twoFactor.useRecoveryCode(id, 'r1', 2001), false);
      assert.equal(await twoFactor.recoveryCodesLeft(id), 1);
      await twoFactor.replaceRecoveryCodes(id, ['n1', 'n2', 'n3']);
      assert.equal(await twoFactor.useRecoveryCode(id, 'r2', 2002), false, 'old codes end');
      assert.equal(await twoFactor.recoveryCodesLeft(id), 3);
      await twoFactor.remove(id);
      assert.equal(await twoFactor.find(id), null);
      assert.equal(await twoFactor.recoveryCodesLeft(id), 0);
    });

    test('a challenge is found until it expires and is deleted once', async () => {
      const { challenges, person } = subject();
      const id = await person();
      const hash = unique('c');
      await challenges.insert(id, hash, true, 1000, 2000);
      assert.deepEqual(await challenges.find(hash, 1999), { userId: id, remember: true });
      assert.equal(await challenges.find(hash, 2000), null);
      assert.equal(await challenges.delete(hash), true);
      assert.equal(await challenges.delete(hash), false);
    });

    test("deleteAll ends every challenge of the person and no one else's", async () => {
      const { challenges, person } = subject();
      const [id, other] = [await person(), await person()];
      const [a, b, c] = [unique('a'), unique('b'), unique('c')];
      await challenges.insert(id, a, false, 1000, 5000);
      await challenges.insert(id, b, true, 1000, 5000);
      await challenges.insert(other, c, false, 1000, 5000);
      await challenges.deleteAll(id);
      assert.equal(await challenges.find(a, 2000), null);
      assert.equal(await challenges.find(b, 2000), null);
      assert.deepEqual(await challenges.find(c, 2000), { userId: other, remember: false });
    });

    test('a reset token is found while live and unused, used once, and endAll ends the others', async () => {
      const { resets, person } = subject();
      const id = await person();
      const [a, b, c] = [unique('a'), unique('b'), unique('c')];
      await resets.insert(id, a, 1000, 5000);
      await resets.insert(id, b, 1000, 5000);
      await resets.insert(id, c, 1000, 1500);
      assert.equal(await resets.find(a, 4999), id);
      assert.equal(await resets.find(c, 1500), null, 'past its time');
      assert.equal(await resets.use(c, 1600), null);
      assert.equal(await resets.use(a, 2000), id);
      assert.equal(await resets.use(a, 2001), null, 'once');
      assert.equal(await resets.find(a, 2001), null);
      await resets.endAll(id, 2002);
      assert.equal(await resets.find(b, 2003), null);
      assert.equal(await resets.find('unknown', 2003), null);
    });
  });
}
