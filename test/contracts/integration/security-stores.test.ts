import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../sql-database.ts';
import { sqlOwners } from '../sql-owners.ts';
import { describeSecurityStoresContract } from '../security-stores-contract.ts';
import { SqlChallengeStore, SqlTwoFactorStore } from '../../../src/adapters/storage/stores/two-factor-store.ts';
import { SqlPasswordResetStore } from '../../../src/adapters/storage/stores/password-reset-store.ts';
import { fixedKeys, SecretBox } from '../../../src/adapters/secrets/secret-box.ts';
import { newSealKeyText, sealKeyOf } from '../../../src/adapters/secrets/seal-key.ts';

const boxOf = (text: string) => new SecretBox(fixedKeys({ sealing: sealKeyOf(text), opening: [sealKeyOf(text)] }));

onEachSqlEngine('SQL security stores', (storage) => {
  describeSecurityStoresContract('SqlTwoFactorStore, SqlChallengeStore, SqlPasswordResetStore', () => {
    const { db } = storage();
    return {
      twoFactor: new SqlTwoFactorStore(db, boxOf(newSealKeyText())),
      challenges: new SqlChallengeStore(db),
      resets: new SqlPasswordResetStore(db),
      person: () => sqlOwners(db).account(),
    };
  });

  test('the TOTP secret is sealed in its row: another key cannot open it', async () => {
    const { db } = storage();
    const id = await sqlOwners(db).account();
    await new SqlTwoFactorStore(db, boxOf(newSealKeyText())).start(id, 'JBSWY3DPEHPK3PXP', 1000);
    const row = await db
      .selectFrom('user_totp')
      .select('secret_box')
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(!row.secret_box.includes('JBSWY3DPEHPK3PXP'));
    assert.match(row.secret_box, /^v2\./);
    await assert.rejects(new SqlTwoFactorStore(db, boxOf(newSealKeyText())).find(id));
  });
});
