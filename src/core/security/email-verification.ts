import { TooManyAttemptsError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttemptLimiter, AttemptPolicy } from '../shared/attempt-limiter.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Account, NewAccount } from '../accounts/account.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import { normaliseEmail } from '../accounts/email.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { EmailVerificationStore } from './email-verification-store.ts';

export interface EmailVerificationDeps {
  store: EmailVerificationStore;
  accounts: Pick<AccountStore, 'findByEmail'>;
  mailer: Mailer;
  /** Links are built on the service's public URL, never on a request's Host. */
  appUrl: string;
  /** Resends per client address, and per email, whatever the answer (like the password reset's). */
  perAddress: AttemptLimiter;
  perEmail: AttemptLimiter;
  onMailError: (error: unknown) => void;
  clock: Clock;
  /** A sign-up's account and its "unverified" mark: one transaction (docs/design/teams.md). */
  registration: UnitOfWork<RegistrationPorts>;
}

/** What a sign-up writes when its email must be proved: the account, then its mark and first link. */
export interface RegistrationPorts {
  accounts: Pick<AccountStore, 'createWithPassword'>;
  store: EmailVerificationStore;
}

/** A verification link works this long, once. */
const VERIFICATION_LIFETIME_MS = 24 * 3_600_000;

export const VERIFY_PER_ADDRESS: AttemptPolicy = Object.freeze({
  name: 'email-verification-address',
  max: 10,
  windowSeconds: 3600,
});
export const VERIFY_PER_EMAIL: AttemptPolicy = Object.freeze({
  name: 'email-verification-email',
  max: 3,
  windowSeconds: 3600,
});

const EMAIL_KEY_MAX = 256;
const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * EMAIL_VERIFICATION=required: a sign-up is sent a single-use link and cannot sign in until it
 * opens it. A resend answers the same whether the email awaits one or not; mails leave after
 * the answer, their failures told to the log.
 */
export class EmailVerification {
  constructor(private readonly deps: EmailVerificationDeps) {}

  /**
   * Stores a new sign-up's account already marked unverified: the account, the mark and its first
   * link commit together, so no account exists that could sign in unproved (a failed mark leaves
   * no account). The link is mailed once committed.
   */
  async createUnverified(profile: NewAccount, passwordHash: string, now: number): Promise<Account> {
    const { account, link } = await this.deps.registration(async (tx) => {
      const account = await tx.accounts.createWithPassword(profile, passwordHash, now);
      return { account, link: await this.issue(tx.store, account) };
    });
    this.mail(account, link);
    return account;
  }

  pending(userId: number): Promise<boolean> {
    return this.deps.store.pending(userId);
  }

  async resend(email: string, address: string): Promise<void> {
    const normalised = normaliseEmail(email);
    for (const [limiter, key] of [
      [this.deps.perAddress, address],
      [this.deps.perEmail, normalised.slice(0, EMAIL_KEY_MAX)],
    ] as const) {
      const attempt = await limiter.consume(key);
      if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
    }
    const account = await this.deps.accounts.findByEmail(normalised);
    if (!account || !(await this.deps.store.pending(account.id))) return;
    this.mail(account, await this.issue(this.deps.store, account));
  }

  /** True when the link was live and unused: the person may sign in from now on. */
  async verify(token: string): Promise<boolean> {
    return wellFormed(token) && (await this.deps.store.use(digest(token), this.deps.clock.now())) !== null;
  }

  private async issue(store: EmailVerificationStore, account: Account): Promise<string> {
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await store.insert(account.id, digest(token), now, now + VERIFICATION_LIFETIME_MS);
    return `${this.deps.appUrl.replace(/\/$/, '')}/signup/verify/${token}`;
  }

  private mail(account: Account, link: string): void {
    const text = [
      `Hello ${account.name},`,
      '',
      'Open this link within 24 hours to confirm the email address of your new linkpix account; it works once:',
      '',
      link,
      '',
      'If you did not sign up, ignore this mail: the account stays closed.',
    ].join('\n');
    void this.deps.mailer
      .send({ to: account.email, subject: 'Confirm your email address', text })
      .catch((error: unknown) => this.deps.onMailError(error));
  }
}
