import type { Account, ApiKey, NewAccount, Session } from '../../../src/core/accounts/account.ts';
import type { AccountStore, NewKey, NewSession, SessionStore } from '../../../src/core/accounts/account-store.ts';
import type { PasswordHasher } from '../../../src/core/accounts/password-hasher.ts';
import type { Attempt, AttemptLimiter } from '../../../src/core/shared/attempt-limiter.ts';
import type { Clock } from '../../../src/core/shared/clock.ts';
import { ValidationError } from '../../../src/core/shared/errors.ts';
import { messages } from '../../../src/core/shared/messages.ts';

/** Small in-memory stand-ins for the accounts feature's ports, for unit tests of the core. */
export class MemoryAccountStore implements AccountStore {
  readonly accounts: (Account & { passwordHash: string | null })[] = [];
  readonly keys: (ApiKey & { hash: string })[] = [];

  /** As the unique index on the email: the services look first, a race meets this. */
  private refuseTaken(email: string, exceptId?: number): void {
    if (this.accounts.some((a) => a.email === email && a.id !== exceptId))
      throw ValidationError.of('email', messages.taken('email'));
  }

  /** An account as the SQL stores insert it (the SSO fake makes one without a password too). */
  add(account: NewAccount, passwordHash: string | null, now: number): Account {
    this.refuseTaken(account.email);
    const made = {
      ...account,
      id: this.accounts.length + 1,
      createdAt: now,
      isAdmin: this.accounts.length === 0,
      suspendedAt: null,
      passwordHash,
    };
    this.accounts.push(made);
    return strip(made);
  }

  async createWithKey(account: NewAccount, key: NewKey, now: number) {
    const made = this.add(account, null, now);
    return { account: made, key: await this.insertKey(made.id, key, now) };
  }
  async createWithPassword(account: NewAccount, passwordHash: string, now: number) {
    return this.add(account, passwordHash, now);
  }
  async findByEmail(email: string) {
    const found = this.accounts.find((a) => a.email === email);
    return found ? strip(found) : null;
  }
  async findById(id: number) {
    const found = this.accounts.find((a) => a.id === id);
    return found ? strip(found) : null;
  }
  async findCredentials(email: string) {
    const found = this.accounts.find((a) => a.email === email);
    return found ? { account: strip(found), passwordHash: found.passwordHash } : null;
  }
  async passwordHashOf(accountId: number) {
    return this.accounts.find((a) => a.id === accountId)?.passwordHash ?? null;
  }
  async setPasswordHash(accountId: number, hash: string) {
    const found = this.accounts.find((a) => a.id === accountId);
    if (found) found.passwordHash = hash;
  }
  async updateProfile(accountId: number, profile: NewAccount) {
    const found = this.accounts.find((a) => a.id === accountId)!;
    this.refuseTaken(profile.email, accountId);
    Object.assign(found, profile);
    return strip(found);
  }
  async insertKey(accountId: number, key: NewKey, now: number) {
    const made = {
      id: this.keys.length + 1,
      accountId,
      userId: key.userId ?? accountId,
      scopes: key.scopes ? [...key.scopes] : null,
      expiresAt: key.expiresAt ?? null,
      name: key.name,
      prefix: key.prefix,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
      hash: key.hash,
    };
    this.keys.push(made);
    return stripKey(made);
  }
  async listKeys(accountId: number) {
    return this.keys.filter((k) => k.accountId === accountId).map(stripKey);
  }
  async revokeKey(accountId: number, keyId: number, now: number) {
    const found = this.keys.find((k) => k.id === keyId && k.accountId === accountId && k.revokedAt === null);
    if (found) found.revokedAt = now;
    return found !== undefined;
  }
  async findKeyByHash(hash: string) {
    const key = this.keys.find((k) => k.hash === hash);
    const account = key && this.accounts.find((a) => a.id === key.accountId);
    return key && account ? { key: stripKey(key), account: strip(account) } : null;
  }
  /** Each write of a key's last use, as [keyId, now]. */
  readonly touches: [number, number][] = [];
  async touchKey(keyId: number, now: number, since: number) {
    this.touches.push([keyId, now]);
    const found = this.keys.find((k) => k.id === keyId && (k.lastUsedAt === null || k.lastUsedAt < since));
    if (found) found.lastUsedAt = now;
  }
  /** No links here: the account and its keys go (its sessions no longer resolve), no click caps to forget. */
  async deleteAccount(accountId: number): Promise<number[] | null> {
    const i = this.accounts.findIndex((a) => a.id === accountId);
    if (i < 0) return null;
    this.accounts.splice(i, 1);
    for (let k = this.keys.length - 1; k >= 0; k--) if (this.keys[k]!.accountId === accountId) this.keys.splice(k, 1);
    return [];
  }
}

function strip({ passwordHash: _, ...account }: Account & { passwordHash: string | null }): Account {
  return account;
}

function stripKey({ hash: _, ...key }: ApiKey & { hash: string }): ApiKey {
  return key;
}

export class MemorySessionStore implements SessionStore {
  private readonly rows: (Session & { tokenHash: string })[] = [];
  private nextId = 1;

  constructor(private readonly accounts: MemoryAccountStore) {}

  async insert(accountId: number, s: NewSession) {
    const row = {
      id: this.nextId++,
      accountId,
      createdAt: s.createdAt,
      lastSeenAt: s.createdAt,
      expiresAt: s.expiresAt,
      userAgent: s.userAgent,
      address: s.address,
      tokenHash: s.tokenHash,
    };
    this.rows.push(row);
    return withoutHash(row);
  }
  async find(tokenHash: string, now: number) {
    const row = this.rows.find((r) => r.tokenHash === tokenHash && r.expiresAt > now);
    const account = row ? await this.accounts.findById(row.accountId) : null;
    return row && account ? { session: withoutHash(row), account } : null;
  }
  async touch(sessionId: number, now: number) {
    const row = this.rows.find((r) => r.id === sessionId);
    if (row) row.lastSeenAt = now;
  }
  async list(accountId: number, now: number) {
    return this.rows
      .filter((r) => r.accountId === accountId && r.expiresAt > now)
      .sort((a, b) => b.id - a.id)
      .map(withoutHash);
  }
  async delete(accountId: number, sessionId: number) {
    const i = this.rows.findIndex((r) => r.id === sessionId && r.accountId === accountId);
    if (i >= 0) this.rows.splice(i, 1);
    return i >= 0;
  }
  async deleteAll(accountId: number, keepId: number | null) {
    for (let i = this.rows.length - 1; i >= 0; i--)
      if (this.rows[i]!.accountId === accountId && this.rows[i]!.id !== keepId) this.rows.splice(i, 1);
  }
}

function withoutHash({ tokenHash: _, ...session }: Session & { tokenHash: string }): Session {
  return session;
}

/** Reversible on purpose: a unit test is about the service's rules, not the hash's strength. */
export const plainHasher: PasswordHasher = {
  hash: async (password) => `plain:${password}`,
  verify: async (hash, password) => hash === `plain:${password}`,
};

/** Allows `max` attempts per key, then refuses; reset forgets. */
export class CountingLimiter implements AttemptLimiter {
  readonly counts = new Map<string, number>();
  constructor(private readonly max: number) {}
  async consume(key: string): Promise<Attempt> {
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n <= this.max ? { allowed: true } : { allowed: false, retryAfterSeconds: 60 };
  }
  async reset(key: string) {
    this.counts.delete(key);
  }
}

export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 10, 25, 12)) {}
  now() {
    return this.ms;
  }
  advance(ms: number) {
    this.ms += ms;
  }
}
