import { TooManyAttemptsError, ValidationError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttemptLimiter, AttemptPolicy } from '../shared/attempt-limiter.ts';
import type { Account } from '../accounts/account.ts';
import type { Totp } from './totp.ts';
import type { TwoFactorStore } from './two-factor-store.ts';
import type { AuditChanges } from '../audit/audit-entry.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';
import { recordAccountChange, selfThroughWeb } from '../accounts/account-audit.ts';
import { RECOVERY_CODE_COUNT, newRecoveryCode, recoveryCodeHash } from './recovery-codes.ts';

export interface TwoFactorDeps {
  store: TwoFactorStore;
  totp: Totp;
  /** Guesses of one person's codes, from anywhere (shared across instances like the password's). */
  attempts: AttemptLimiter;
  /** Checks the person's password (counted against their sign-in limit); throws ValidationError on the field. */
  confirmPassword: (account: Account, password: string, field: string) => Promise<void>;
  /** Shown in the authenticator app beside the email. */
  issuer: string;
  clock: Clock;
  /**
   * Turning two-factor on or off, or new recovery codes, and the audit entry commit together (docs/design/teams.md);
   * absent: no entry.
   */
  unit?: AuditedUnit<TwoFactorStore> | undefined;
}

export type TwoFactorStatus =
  | { state: 'off' }
  | { state: 'enrolling'; secret: string; uri: string }
  | { state: 'on'; since: number; recoveryCodesLeft: number };

/** Guesses of one person's codes (a six-digit code has a million values: ten tries leave a 1 in 100 000 chance). */
export const TWO_FACTOR_ATTEMPTS: AttemptPolicy = Object.freeze({
  name: 'two-factor-user',
  max: 10,
  windowSeconds: 900,
});

const SIX_DIGITS = /^\d{6}$/;

/**
 * A second factor for signing in: TOTP (RFC 6238), enrolled by scanning its URI and proving it
 * with a first code, and single-use recovery codes for a lost phone. A code is accepted once
 * (its time step is remembered); every guess counts against the person's limit first.
 */
export class TwoFactorService {
  private readonly unit: AuditedUnit<TwoFactorStore>;

  constructor(private readonly deps: TwoFactorDeps) {
    this.unit = deps.unit ?? unaudited(deps.store);
  }

  /** A change to the person's second factor and its entry in their personal workspace's log (codes as "changed"). */
  private changed<T>(
    userId: number,
    action: string,
    changes: AuditChanges,
    work: (store: TwoFactorStore) => Promise<T>,
  ): Promise<T> {
    const at = this.deps.clock.now();
    return this.unit(async (tx) => {
      const result = await work(tx.store);
      if (result !== false)
        await recordAccountChange(tx.audit, { userId, actor: selfThroughWeb(userId), action, changes, at });
      return result;
    });
  }

  async status(account: Account): Promise<TwoFactorStatus> {
    const found = await this.deps.store.find(account.id);
    if (!found) return { state: 'off' };
    if (found.confirmedAt === null)
      return { state: 'enrolling', secret: found.secret, uri: this.uri(account, found.secret) };
    return {
      state: 'on',
      since: found.confirmedAt,
      recoveryCodesLeft: await this.deps.store.recoveryCodesLeft(account.id),
    };
  }

  async enabled(userId: number): Promise<boolean> {
    const found = await this.deps.store.find(userId);
    return found !== null && found.confirmedAt !== null;
  }

  /** A new secret to scan; replaces an enrolment not yet confirmed. Refused while two-factor is on. */
  async begin(account: Account): Promise<{ secret: string; uri: string }> {
    const secret = this.deps.totp.newSecret();
    if (!(await this.deps.store.start(account.id, secret, this.deps.clock.now())))
      throw ValidationError.of('code', 'Two-factor sign-in is already on.');
    return { secret, uri: this.uri(account, secret) };
  }

  /** Drops an enrolment not yet confirmed; one that is on stays (turning it off asks for more). */
  async cancel(account: Account): Promise<void> {
    const found = await this.deps.store.find(account.id);
    if (found && found.confirmedAt === null) await this.deps.store.remove(account.id);
  }

  /** The first code proves the app holds the secret: two-factor is on. The recovery codes, shown this once. */
  async confirm(account: Account, code: string): Promise<string[]> {
    await this.count(account.id);
    const found = await this.deps.store.find(account.id);
    if (!found || found.confirmedAt !== null) throw ValidationError.of('code', 'Start the set-up again.');
    const step = this.deps.totp.stepOf(found.secret, clean(code), this.deps.clock.now());
    if (step === null) throw ValidationError.of('code', WRONG_CODE);
    const codes = newCodes();
    const confirmed = await this.changed(
      account.id,
      'account.two_factor_enabled',
      { two_factor: [false, true], recovery_codes: 'changed' },
      (store) => store.confirm(account.id, step, hashes(account.id, codes), this.deps.clock.now()),
    );
    if (!confirmed) throw ValidationError.of('code', 'Start the set-up again.');
    await this.deps.attempts.reset(String(account.id));
    return codes;
  }

  /**
   * A code from the app, or a recovery code, for a person with two-factor on: accepted once.
   * Throws ValidationError on `code` when wrong or already used, TooManyAttemptsError past the limit.
   */
  async verify(userId: number, code: string, field = 'code'): Promise<'totp' | 'recovery'> {
    await this.count(userId);
    const found = await this.deps.store.find(userId);
    if (!found || found.confirmedAt === null) throw ValidationError.of(field, WRONG_CODE);
    const typed = clean(code);
    let how: 'totp' | 'recovery' | null = null;
    if (SIX_DIGITS.test(typed)) {
      const step = this.deps.totp.stepOf(found.secret, typed, this.deps.clock.now());
      if (step !== null && (await this.deps.store.acceptStep(userId, step))) how = 'totp';
    } else if (typed.length > 0 && typed.length <= 64) {
      if (await this.deps.store.useRecoveryCode(userId, recoveryCodeHash(userId, typed), this.deps.clock.now()))
        how = 'recovery';
    }
    if (how === null) throw ValidationError.of(field, WRONG_CODE);
    await this.deps.attempts.reset(String(userId));
    return how;
  }

  /** Turning it off asks for both the password and a code: a borrowed session is not enough. */
  async disable(account: Account, password: string, code: string): Promise<void> {
    await this.deps.confirmPassword(account, password, 'password');
    await this.verify(account.id, code);
    await this.changed(
      account.id,
      'account.two_factor_disabled',
      { two_factor: [true, false], recovery_codes: 'changed' },
      (store) => store.remove(account.id),
    );
  }

  /** A new set of recovery codes (the old ones stop working), for a code. */
  async regenerate(account: Account, code: string): Promise<string[]> {
    await this.verify(account.id, code);
    const codes = newCodes();
    await this.changed(account.id, 'account.recovery_codes_regenerated', { recovery_codes: 'changed' }, (store) =>
      store.replaceRecoveryCodes(account.id, hashes(account.id, codes)),
    );
    return codes;
  }

  private async count(userId: number): Promise<void> {
    const attempt = await this.deps.attempts.consume(String(userId));
    if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
  }

  private uri(account: Account, secret: string): string {
    return this.deps.totp.uri(secret, account.email, this.deps.issuer);
  }
}

const WRONG_CODE = 'The code is wrong or was already used.';

/** Authenticator apps show codes as "123 456"; people paste them with spaces. */
function clean(code: string): string {
  return code.trim().replace(/\s+/g, '');
}

function newCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

function hashes(userId: number, codes: readonly string[]): string[] {
  return codes.map((c) => recoveryCodeHash(userId, c));
}
