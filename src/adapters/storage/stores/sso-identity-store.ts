import type { Kysely } from 'kysely';
import type { Account, NewAccount } from '../../../core/accounts/account.ts';
import type {
  LinkedIdentity,
  SsoIdentity,
  SsoIdentityStore,
  UnlinkOutcome,
} from '../../../core/sso/sso-identity-store.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { insertAccount } from './account-store.ts';

export class SqlSsoIdentityStore implements SsoIdentityStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

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

  async unlink(userId: number, identity: SsoIdentity): Promise<UnlinkOutcome> {
    // One statement: the row goes only while the person keeps a password or another identity.
    // On PostgreSQL the person's identities are locked in one order first, so of two unlinks at
    // once the second waits, then counts without the first's row (docs/design/secrets.md);
    // SQLite runs one writing statement at a time.
    const result = await this.db
      .deleteFrom('sso_identities')
      .where('issuer', '=', identity.issuer)
      .where('subject', '=', identity.subject)
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb.selectFrom('accounts').select('id').where('id', '=', userId).where('password_hash', 'is not', null),
          ),
          eb(
            eb.selectFrom(this.identitiesLocked(userId).as('mine')).select((c) => c.fn.countAll().as('n')),
            '>',
            1,
          ),
        ]),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) > 0) return 'unlinked';
    return (await this.findUser(identity)) === userId ? 'last' : 'absent';
  }

  /** The person's identities, locked in one order on PostgreSQL (two lockers never wait on each other). */
  private identitiesLocked(userId: number) {
    const mine = this.db
      .selectFrom('sso_identities')
      .select('subject')
      .where('user_id', '=', userId)
      .orderBy('issuer')
      .orderBy('subject');
    return this.engine === 'postgres' ? mine.forUpdate() : mine;
  }

  createUser(account: NewAccount, identity: SsoIdentity, now: number): Promise<Account> {
    return this.db.transaction().execute(async (trx) => {
      const made = await insertAccount(trx, account, null, now);
      await trx
        .insertInto('sso_identities')
        .values({ issuer: identity.issuer, subject: identity.subject, user_id: made.id, created_at: now })
        .execute();
      return made;
    });
  }
}
