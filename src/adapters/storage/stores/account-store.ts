import type { Kysely, Selectable } from 'kysely';
import type { Account, ApiKey, NewAccount } from '../../../core/accounts/account.ts';
import type { AccountStore, NewKey } from '../../../core/accounts/account-store.ts';
import type { AccountsTable, ApiKeysTable, Database } from '../schema.ts';

const toAccount = (r: Selectable<AccountsTable>): Account => ({
  id: r.id,
  name: r.name,
  email: r.email,
  timezone: r.timezone,
  createdAt: r.created_at,
});

const toKey = (r: Selectable<ApiKeysTable>): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
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
      const row = await trx
        .insertInto('accounts')
        .values({ ...account, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const keyRow = await insertKey(trx, row.id, key, now);
      return { account: toAccount(row), key: keyRow };
    });
  }

  async findByEmail(email: string): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async findById(id: number): Promise<Account | null> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  insertKey(accountId: number, key: NewKey, now: number): Promise<ApiKey> {
    return insertKey(this.db, accountId, key, now);
  }

  async listKeys(accountId: number): Promise<ApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
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
    const account = await this.db.selectFrom('accounts').selectAll().where('id', '=', key.account_id).executeTakeFirst();
    return account ? { key: toKey(key), account: toAccount(account) } : null;
  }
}

async function insertKey(db: Kysely<Database>, accountId: number, key: NewKey, now: number): Promise<ApiKey> {
  const row = await db
    .insertInto('api_keys')
    .values({ account_id: accountId, name: key.name, prefix: key.prefix, key_hash: key.hash, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toKey(row);
}
