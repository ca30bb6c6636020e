import type { Kysely, Selectable } from 'kysely';
import type { Session } from '../../../core/accounts/account.ts';
import type { NewSession, SessionStore } from '../../../core/accounts/account-store.ts';
import type { Database, SessionsTable } from '../schema.ts';
import { toAccount } from './account-store.ts';

const toSession = (r: Selectable<SessionsTable>): Session => ({
  id: r.id,
  accountId: r.account_id,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  userAgent: r.user_agent,
  address: r.address,
});

export class SqlSessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(accountId: number, s: NewSession): Promise<Session> {
    // Ended sessions of the account go as a new one starts: the table holds live sessions only.
    await this.db
      .deleteFrom('sessions')
      .where('account_id', '=', accountId)
      .where('expires_at', '<=', s.createdAt)
      .execute();
    const row = await this.db
      .insertInto('sessions')
      .values({
        account_id: accountId,
        user_id: accountId,
        token_hash: s.tokenHash,
        created_at: s.createdAt,
        last_seen_at: s.createdAt,
        expires_at: s.expiresAt,
        user_agent: s.userAgent,
        address: s.address,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
  }

  async find(tokenHash: string, now: number) {
    const session = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!session) return null;
    const account = await this.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', session.account_id)
      .executeTakeFirst();
    return account ? { session: toSession(session), account: toAccount(account) } : null;
  }

  async touch(sessionId: number, now: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
  }

  async list(accountId: number, now: number): Promise<Session[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toSession);
  }

  async delete(accountId: number, sessionId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(accountId: number, keepId: number | null): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('account_id', '=', accountId);
    if (keepId !== null) query = query.where('id', '!=', keepId);
    await query.execute();
  }
}
