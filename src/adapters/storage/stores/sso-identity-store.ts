import type { Kysely } from 'kysely';
import type { Account, NewAccount } from '../../../core/accounts/account.ts';
import type { LinkedIdentity, SsoIdentity, SsoIdentityStore } from '../../../core/sso/sso-identity-store.ts';
import type { Database } from '../schema.ts';
import { insertAccount } from './account-store.ts';

export class SqlSsoIdentityStore implements SsoIdentityStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findUser(identity: SsoIdentity): Promise<number | null> {
    const row = await this.db
      .selectFrom('sso_identities')
      .select('user_id')
      .where('issuer', '=', identity.issuer)
      .where('subject', '=', identity.subject)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async link(userId: number, identity: SsoIdentity, now: number): Promise<void> {
    await this.db
      .insertInto('sso_identities')
      .values({ issuer: identity.issuer, subject: identity.subject, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
      .execute();
  }

  async ofUser(userId: number): Promise<LinkedIdentity[]> {
    const rows = await this.db
      .selectFrom('sso_identities')
      .select(['issuer', 'subject', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('subject')
      .execute();
    return rows.map((r) => ({ issuer: r.issuer, subject: r.subject, createdAt: Number(r.created_at) }));
  }

  async unlink(userId: number, identity: SsoIdentity): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sso_identities')
      .where('issuer', '=', identity.issuer)
      .where('subject', '=', identity.subject)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  createUser(account: NewAccount, identity: SsoIdentity, now: number): Promise<Account> {
    return this.db.transaction().execute(async (trx) => {
      const made = await insertAccount(trx, account, null, now);
      await trx.insertInto('sso_identities').values({ issuer: identity.issuer, subject: identity.subject, user_id: made.id, created_at: now }).execute();
      return made;
    });
  }
}
