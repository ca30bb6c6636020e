// Two unlinks at once of a password-less person's two identities (issue 48): the check "not the
// last way in" and the delete are one statement, so one unlink passes and the other is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../../contracts/sql-database.ts';
import { SqlSsoIdentityStore } from '../../../src/adapters/storage/stores/sso-identity-store.ts';
import { SsoLinks } from '../../../src/core/sso/sso-links.ts';
import { ValidationError } from '../../../src/core/shared/errors.ts';

const ISSUER = 'https://id.example';

onEachSqlEngine('SSO unlink', (storage) => {
  test("two unlinks at once of a password-less person's two identities leave one, and the other is refused naming sso", async () => {
    const { db, engine } = storage();
    const identities = new SqlSsoIdentityStore(db, engine);
    const links = new SsoLinks({ identities, allowedDomains: [], clock: { now: () => 1000 } });
    for (let round = 0; round < 5; round++) {
      const stem = `race-${process.pid}-${Date.now().toString(36)}-${round}`;
      const [one, two] = [
        { issuer: ISSUER, subject: `${stem}-a` },
        { issuer: ISSUER, subject: `${stem}-b` },
      ];
      const sam = await identities.createUser(
        { email: `${stem}@example.com`, name: 'Sam', timezone: 'UTC' },
        one,
        1000,
      );
      await identities.link(sam.id, two, 1001);
      const settled = await Promise.allSettled([links.unlink(sam.id, one), links.unlink(sam.id, two)]);
      const refused = settled.filter((s) => s.status === 'rejected');
      assert.equal(refused.length, 1, `round ${round}: one unlink is refused`);
      assert.ok(
        refused[0]?.status === 'rejected' &&
          refused[0].reason instanceof ValidationError &&
          'sso' in refused[0].reason.fields,
      );
      assert.equal((await identities.ofUser(sam.id)).length, 1, `round ${round}: one way in is left`);
    }
  });
});
