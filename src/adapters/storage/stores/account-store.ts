import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Account, ApiKey, NewAccount } from '../../../core/accounts/account.ts';
import type { AccountStore, NewKey } from '../../../core/accounts/account-store.ts';
import type { AccountsTable, ApiKeysTable, Database } from '../schema.ts';
import { ValidationError } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { isUniqueViolation, isUnstorableText } from '../sql-helpers.ts';
import { storeTransaction } from '../transactions.ts';

/**
 * The services look the email up first; two sign-ups of one email at once both pass that look
 * and meet at the unique index: the second is told what the look would have told it.
 */
function emailTakenOn(error: unknown): unknown {
  return isUniqueViolation(error) ? ValidationError.of('email', messages.taken('email')) : error;
}

export const toAccount = (r: Selectable<AccountsTable>): Account => ({
  id: r.id,
  name: r.name,
  email: r.email,
  timezone: r.timezone,
  createdAt: r.created_at,
  isAdmin: r.is_admin === 1,
  suspendedAt: r.suspended_at,
});

export const toKey = (r: Selectable<ApiKeysTable>): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  userId: r.user_id ?? r.account_id,
  scopes: r.scopes === null ? null : (JSON.parse(r.scopes) as string[]),
  expiresAt: r.expires_at,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export class SqlAccountStore implements AccountStore {
  constructor(private readonly db: Kysely<Database>) {}

  createWithKey(account: NewAccount, key: NewKey, now: number) {
    return this.db.transaction().execute(async (trx) => {
      const row = await insertAccount(trx, account, null, now);
      const keyRow = await insertKey(trx, row.id, key, now);
      return { account: row, key: keyRow };
    });
  }

  createWithPassword(account: NewAccount, passwordHash: string, now: number): Promise<Account> {
    return storeTransaction(this.db, (trx) => insertAccount(trx, account, passwordHash, now));
  }

  async findCredentials(email: string) {
    const row = await this.rowOfEmail(email);
    return row ? { account: toAccount(row), passwordHash: row.password_hash } : null;
  }

  async passwordHashOf(accountId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async setPasswordHash(accountId: number, hash: string): Promise<void> {
    await this.db.updateTable('accounts').set({ password_hash: hash }).where('id', '=', accountId).execute();
  }

  async updateProfile(accountId: number, profile: NewAccount): Promise<Account> {
    try {
      return toAccount(
        await this.db
          .updateTable('accounts')
          .set(profile)
          .where('id', '=', accountId)
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    } catch (error) {
      throw emailTakenOn(error);
    }
  }

  async findByEmail(email: string): Promise<Account | null> {
    const row = await this.rowOfEmail(email);
    return row ? toAccount(row) : null;
  }

  /** Emails typed at sign-in are looked up as typed: one with a NUL is no account on PostgreSQL, not an error. */
  private async rowOfEmail(email: string) {
    try {
      return await this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
    } catch (error) {
      if (isUnstorableText(error)) return undefined;
      throw error;
    }
  }

  async findById(id: number): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  insertKey(accountId: number, key: NewKey, now: number): Promise<ApiKey> {
    return insertKey(this.db, accountId, key, now);
  }

  async listKeys(accountId: number): Promise<ApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    return rows.map(toKey);
  }

  async revokeKey(accountId: number, keyId: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', keyId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findKeyByHash(hash: string) {
    const key = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
    if (!key) return null;
    const account = await this.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', key.account_id)
      .executeTakeFirst();
    return account ? { key: toKey(key), account: toAccount(account) } : null;
  }

  async touchKey(keyId: number, now: number, since: number): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
      .execute();
  }

  /**
   * The foreign keys do most of it: keys, sessions, spaces, pixels, domains and links cascade
   * from the account, and link_pixels and click_rollups from its links. Click rows cascade on
   * PostgreSQL; on SQLite they have no foreign key (migration 0004) and the trigger there lists
   * each deleted link for the retention sweep, as when one link is deleted. Visitor marks have no
   * foreign key on either engine (they live two days): deleted here, so nothing of the account's
   * visitors outlives it.
   */
  deleteAccount(accountId: number): Promise<number[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const capped = await trx
        .selectFrom('links')
        .select('id')
        .where('account_id', '=', accountId)
        .where('expiration_clicks', 'is not', null)
        .execute();
      await trx
        .deleteFrom('click_visitors')
        .where('link_id', 'in', (eb) => eb.selectFrom('links').select('id').where('account_id', '=', accountId))
        .execute();
      const deleted = await trx.deleteFrom('accounts').where('id', '=', accountId).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0 ? capped.map((r) => r.id) : null;
    });
  }
}

/** The first account of the service is its operator: decided inside the transaction that makes it. */
export async function insertAccount(
  trx: Kysely<Database>,
  account: NewAccount,
  passwordHash: string | null,
  now: number,
): Promise<Account> {
  const first =
    (await trx
      .selectFrom('accounts')
      .select(sql<number>`1`.as('one'))
      .limit(1)
      .executeTakeFirst()) === undefined;
  try {
    const row = await trx
      .insertInto('accounts')
      .values({ ...account, password_hash: passwordHash, is_admin: first ? 1 : 0, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The person and their personal workspace share the id (docs/design/teams.md).
    await trx.insertInto('users').values({ id: row.id, created_at: now }).execute();
    await trx
      .insertInto('memberships')
      .values({ workspace_id: row.id, user_id: row.id, role: 'owner', created_at: now })
      .execute();
    return toAccount(row);
  } catch (error) {
    // Thrown out of the transaction, which rolls back: nothing of the account is left.
    throw emailTakenOn(error);
  }
}

async function insertKey(db: Kysely<Database>, accountId: number, key: NewKey, now: number): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({
      account_id: accountId,
      user_id: key.userId ?? accountId,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.hash,
      scopes: key.scopes ? JSON.stringify(key.scopes) : null,
      expires_at: key.expiresAt ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toKey(row);
}
