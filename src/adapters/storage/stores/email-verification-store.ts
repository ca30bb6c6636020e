import type { Kysely } from 'kysely';
import type { EmailVerificationStore } from '../../../core/security/email-verification-store.ts';
import type { Database } from '../schema.ts';
import { storeTransaction } from '../transactions.ts';

export class SqlEmailVerificationStore implements EmailVerificationStore {
  constructor(private readonly db: Kysely<Database>) {}

  insert(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    // A savepoint inside a sign-up's transaction (EmailVerification.createUnverified).
    return storeTransaction(this.db, async (trx) => {
      const marked = await trx
        .selectFrom('unverified_emails')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!marked) await trx.insertInto('unverified_emails').values({ user_id: userId, since: now }).execute();
      // Links used or past their time go as a new one is made.
      await trx
        .deleteFrom('email_verifications')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
        .execute();
      await trx
        .insertInto('email_verifications')
        .values({ user_id: userId, token_hash: tokenHash, created_at: now, expires_at: expiresAt, used_at: null })
        .execute();
    });
  }

  async pending(userId: number): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('unverified_emails')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst()) !== undefined
    );
  }

  use(tokenHash: string, now: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      // The update is the claim: of two uses at once, one changes the row.
      const row = await trx
        .updateTable('email_verifications')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!row) return null;
      await trx
        .updateTable('email_verifications')
        .set({ used_at: now })
        .where('user_id', '=', row.user_id)
        .where('used_at', 'is', null)
        .execute();
      await trx.deleteFrom('unverified_emails').where('user_id', '=', row.user_id).execute();
      return row.user_id;
    });
  }
}
