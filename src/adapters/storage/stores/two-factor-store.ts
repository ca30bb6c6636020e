import type { Kysely } from 'kysely';
import type {
  ChallengeStore,
  SignInChallenge,
  TotpEnrolment,
  TwoFactorStore,
} from '../../../core/security/two-factor-store.ts';
import type { Database } from '../schema.ts';
import { storeTransaction } from '../transactions.ts';

/** What seals the seeds at rest: the secrets' SecretBox (docs/design/secrets.md), named here so storage needs nothing of it. */
export interface Sealer {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

export class SqlTwoFactorStore implements TwoFactorStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: Sealer,
  ) {}

  async find(userId: number): Promise<TotpEnrolment | null> {
    const row = await this.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    return {
      secret: await this.box.open(row.secret_box),
      createdAt: Number(row.created_at),
      confirmedAt: toNumber(row.confirmed_at),
      lastStep: toNumber(row.last_step),
    };
  }

  async start(userId: number, secret: string, now: number): Promise<boolean> {
    const sealed = await this.box.seal(secret);
    return storeTransaction(this.db, async (trx) => {
      const existing = await trx
        .selectFrom('user_totp')
        .select('confirmed_at')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (existing && existing.confirmed_at !== null) return false;
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await trx
        .insertInto('user_totp')
        .values({ user_id: userId, secret_box: sealed, created_at: now, confirmed_at: null, last_step: null })
        .execute();
      return true;
    });
  }

  confirm(userId: number, step: number, codeHashes: readonly string[], now: number): Promise<boolean> {
    return storeTransaction(this.db, async (trx) => {
      const result = await trx
        .updateTable('user_totp')
        .set({ confirmed_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await writeCodes(trx, userId, codeHashes);
      return true;
    });
  }

  async acceptStep(userId: number, step: number): Promise<boolean> {
    // One conditional write: two requests with the same code cannot both see the older step.
    const result = await this.db
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  replaceRecoveryCodes(userId: number, codeHashes: readonly string[]): Promise<void> {
    return storeTransaction(this.db, (trx) => writeCodes(trx, userId, codeHashes));
  }

  remove(userId: number): Promise<void> {
    return storeTransaction(this.db, async (trx) => {
      await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    });
  }
}

async function writeCodes(trx: Kysely<Database>, userId: number, codeHashes: readonly string[]): Promise<void> {
  await trx.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  if (codeHashes.length > 0)
    await trx
      .insertInto('user_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
      .execute();
}

export class SqlChallengeStore implements ChallengeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(userId: number, tokenHash: string, remember: boolean, now: number, expiresAt: number): Promise<void> {
    // Challenges past their time go as a new one starts: the table holds pending sign-ins only.
    await this.db
      .deleteFrom('sign_in_challenges')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .execute();
    await this.db
      .insertInto('sign_in_challenges')
      .values({ user_id: userId, token_hash: tokenHash, remember: remember ? 1 : 0, expires_at: expiresAt })
      .execute();
  }

  async find(tokenHash: string, now: number): Promise<SignInChallenge | null> {
    const row = await this.db
      .selectFrom('sign_in_challenges')
      .select(['user_id', 'remember'])
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { userId: row.user_id, remember: row.remember === 1 } : null;
  }

  async delete(tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sign_in_challenges')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(userId: number): Promise<void> {
    await this.db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
  }
}

const toNumber = (v: number | string | null): number | null => (v === null ? null : Number(v));
