import type {
  ChallengeStore,
  SignInChallenge,
  TotpEnrolment,
  TwoFactorStore,
} from '../../../src/core/security/two-factor-store.ts';
import type { PasswordResetStore } from '../../../src/core/security/password-reset-store.ts';
import type { Totp } from '../../../src/core/security/totp.ts';
import type { MailMessage, Mailer } from '../../../src/core/mail/mailer.ts';

/** The in-memory TwoFactorStore of the core's unit tests (held to the contract in test/contracts). */
export class MemoryTwoFactorStore implements TwoFactorStore {
  readonly enrolments = new Map<number, TotpEnrolment>();
  readonly codes = new Map<number, Array<{ hash: string; usedAt: number | null }>>();

  async find(userId: number) {
    const found = this.enrolments.get(userId);
    return found ? { ...found } : null;
  }
  async start(userId: number, secret: string, now: number) {
    if (this.enrolments.get(userId)?.confirmedAt != null) return false;
    this.enrolments.set(userId, { secret, createdAt: now, confirmedAt: null, lastStep: null });
    return true;
  }
  async confirm(userId: number, step: number, codeHashes: readonly string[], now: number) {
    const found = this.enrolments.get(userId);
    if (!found || found.confirmedAt !== null) return false;
    this.enrolments.set(userId, { ...found, confirmedAt: now, lastStep: step });
    await this.replaceRecoveryCodes(userId, codeHashes);
    return true;
  }
  async acceptStep(userId: number, step: number) {
    const found = this.enrolments.get(userId);
    if (!found || found.confirmedAt === null || (found.lastStep !== null && found.lastStep >= step)) return false;
    found.lastStep = step;
    return true;
  }
  async useRecoveryCode(userId: number, codeHash: string, now: number) {
    const code = this.codes.get(userId)?.find((c) => c.hash === codeHash && c.usedAt === null);
    if (!code) return false;
    code.usedAt = now;
    return true;
  }
  async recoveryCodesLeft(userId: number) {
    return (this.codes.get(userId) ?? []).filter((c) => c.usedAt === null).length;
  }
  async replaceRecoveryCodes(userId: number, codeHashes: readonly string[]) {
    this.codes.set(
      userId,
      codeHashes.map((hash) => ({ hash, usedAt: null })),
    );
  }
  async remove(userId: number) {
    this.enrolments.delete(userId);
    this.codes.delete(userId);
  }
}

export class MemoryChallengeStore implements ChallengeStore {
  readonly challenges = new Map<string, SignInChallenge & { expiresAt: number }>();
  async insert(userId: number, tokenHash: string, remember: boolean, _now: number, expiresAt: number) {
    this.challenges.set(tokenHash, { userId, remember, expiresAt });
  }
  async find(tokenHash: string, now: number) {
    const found = this.challenges.get(tokenHash);
    return found && found.expiresAt > now ? { userId: found.userId, remember: found.remember } : null;
  }
  async delete(tokenHash: string) {
    return this.challenges.delete(tokenHash);
  }
  async deleteAll(userId: number) {
    for (const [hash, c] of this.challenges) if (c.userId === userId) this.challenges.delete(hash);
  }
}

export class MemoryPasswordResetStore implements PasswordResetStore {
  readonly resets = new Map<string, { userId: number; expiresAt: number; usedAt: number | null }>();
  async insert(userId: number, tokenHash: string, _now: number, expiresAt: number) {
    this.resets.set(tokenHash, { userId, expiresAt, usedAt: null });
  }
  async find(tokenHash: string, now: number) {
    const found = this.resets.get(tokenHash);
    return found && found.usedAt === null && found.expiresAt > now ? found.userId : null;
  }
  async use(tokenHash: string, now: number) {
    const userId = await this.find(tokenHash, now);
    if (userId !== null) this.resets.get(tokenHash)!.usedAt = now;
    return userId;
  }
  async endAll(userId: number, now: number) {
    for (const reset of this.resets.values()) if (reset.userId === userId && reset.usedAt === null) reset.usedAt = now;
  }
}

/**
 * A TOTP whose code at a step is that step's last six digits: the rules around codes (once,
 * limits, recovery) are tested without HMACs; the real algorithm has its own test with RFC 6238's vectors.
 */
export const stepTotp: Totp = {
  newSecret: () => 'SECRET',
  uri: (secret, label, issuer) => `otpauth://totp/${issuer}:${label}?secret=${secret}`,
  stepOf: (_secret, code, now) => {
    const step = Math.floor(now / 30_000);
    for (const s of [step - 1, step, step + 1]) if (codeAtStep(s) === code) return s;
    return null;
  },
};

export const codeAtStep = (step: number) => String(step % 1_000_000).padStart(6, '0');

export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
}
