import type { Account, ApiKey, NewAccount, Session } from './account.ts';

export interface AccountStore {
  /**
   * Creates the account and its first key in one transaction. The first account of the service
   * is made an operator in the same transaction.
   */
  createWithKey(account: NewAccount, key: NewKey, now: number): Promise<{ account: Account; key: ApiKey }>;
  /** Creates an account that signs in with a password (no key); the first account is an operator. */
  createWithPassword(account: NewAccount, passwordHash: string, now: number): Promise<Account>;
  findByEmail(email: string): Promise<Account | null>;
  findById(id: number): Promise<Account | null>;
  /** The account and its password hash (null: no password set), for signing in. */
  findCredentials(email: string): Promise<{ account: Account; passwordHash: string | null } | null>;
  passwordHashOf(accountId: number): Promise<string | null>;
  setPasswordHash(accountId: number, hash: string): Promise<void>;
  updateProfile(accountId: number, profile: NewAccount): Promise<Account>;
  insertKey(accountId: number, key: NewKey, now: number): Promise<ApiKey>;
  listKeys(accountId: number): Promise<ApiKey[]>;
  /** Marks a key revoked; false when the account holds no such live key. */
  revokeKey(accountId: number, keyId: number, now: number): Promise<boolean>;
  findKeyByHash(hash: string): Promise<{ key: ApiKey; account: Account } | null>;
  /** Records a key's use at `now` unless it was recorded at or after `since` (another instance may have). */
  touchKey(keyId: number, now: number, since: number): Promise<void>;
  /**
   * Deletes the account and everything it owns in one transaction: keys, sessions, spaces,
   * pixels, domains, links and their clicks, rollups and visitor marks. Returns the ids of the
   * deleted links that had a click cap (their counts live outside the database), or null when
   * there was no such account.
   */
  deleteAccount(accountId: number): Promise<number[] | null>;
}

export interface NewKey {
  hash: string;
  prefix: string;
  name: string | null;
  /** The person whose role bounds the key; by default the workspace's own person (a personal workspace). */
  userId?: number;
  scopes?: readonly string[] | null;
  expiresAt?: number | null;
}

export interface NewSession {
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  userAgent: string | null;
  address: string | null;
}

export interface SessionStore {
  insert(accountId: number, session: NewSession): Promise<Session>;
  /** The live session of that digest and its account, or null (unknown or past its time). */
  find(tokenHash: string, now: number): Promise<{ session: Session; account: Account } | null>;
  touch(sessionId: number, now: number): Promise<void>;
  list(accountId: number, now: number): Promise<Session[]>;
  /** Ends one session of the account; false when it holds no such session. */
  delete(accountId: number, sessionId: number): Promise<boolean>;
  /** Ends every session of the account except `keepId` (none kept when null). */
  deleteAll(accountId: number, keepId: number | null): Promise<void>;
}
