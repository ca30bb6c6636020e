import type { Account, ApiKey, NewAccount } from './account.ts';

export interface AccountStore {
  /** Creates the account and its first key in one transaction. */
  createWithKey(account: NewAccount, key: NewKey, now: number): Promise<{ account: Account; key: ApiKey }>;
  findByEmail(email: string): Promise<Account | null>;
  findById(id: number): Promise<Account | null>;
  insertKey(accountId: number, key: NewKey, now: number): Promise<ApiKey>;
  listKeys(accountId: number): Promise<ApiKey[]>;
  /** Marks a key revoked; false when the account holds no such live key. */
  revokeKey(accountId: number, keyId: number, now: number): Promise<boolean>;
  findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null>;
}

export interface NewKey {
  hash: string;
  prefix: string;
  name: string | null;
}
