import type { Kysely } from 'kysely';
import type { PasswordResetStore } from '../../../core/security/password-reset-store.ts';
import type { Database } from '../schema.ts';

export class SqlPasswordResetStore implements PasswordResetStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    // Links used or past their time go as a new one is made: the table holds live links only.
    await this.db
      .deleteFrom('password_resets')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
      .execute();
    await this.db
      .insertInto('password_resets')
      .values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt, used_at: null })
      .execute();
  }

  async find(tokenHash: string, now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('password_resets')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async use(tokenHash: string, now: number): Promise<number | null> {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async endAll(userId: number, now: number): Promise<void> {
    await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }
}
