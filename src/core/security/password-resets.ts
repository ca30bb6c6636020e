import { FieldErrorBag, NotFoundError, TooManyAttemptsError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttemptLimiter, AttemptPolicy } from '../shared/attempt-limiter.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Account } from '../accounts/account.ts';
import type { AccountStore, SessionStore } from '../accounts/account-store.ts';
import type { PasswordHasher } from '../accounts/password-hasher.ts';
import { checkPassword } from '../accounts/account-rules.ts';
import { normaliseEmail } from '../accounts/email.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PasswordResetStore } from './password-reset-store.ts';
import type { ChallengeStore } from './two-factor-store.ts';
import { recordAccountChange, selfThroughWeb } from '../accounts/account-audit.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';

export interface PasswordResetDeps {
  resets: PasswordResetStore;
  accounts: Pick<AccountStore, 'findByEmail' | 'findById' | 'setPasswordHash'>;
  sessions: Pick<SessionStore, 'deleteAll'>;
  /** Pending two-factor sign-ins, begun with the old password, end with it. */
  challenges: Pick<ChallengeStore, 'deleteAll'>;
  hasher: PasswordHasher;
  mailer: Mailer;
  /** Links are built on the service's public URL, never on a request's Host. */
  appUrl: string;
  /** Requests per client address, and per email, whatever the answer. */
  perAddress: AttemptLimiter;
  perEmail: AttemptLimiter;
  /** Where a mail that could not be sent is told (the answer to the request is the same either way). */
  onMailError: (error: unknown) => void;
  /** The new password and its audit entry commit together (docs/design/teams.md); absent: no entry. */
  unit?: AuditedUnit<Pick<AccountStore, 'setPasswordHash'>> | undefined;
  clock: Clock;
}

/** A reset link works this long, once. */
export const RESET_LIFETIME_MS = 3_600_000;

export const RESET_PER_ADDRESS: AttemptPolicy = Object.freeze({
  name: 'password-reset-address',
  max: 10,
  windowSeconds: 3600,
});
export const RESET_PER_EMAIL: AttemptPolicy = Object.freeze({
  name: 'password-reset-email',
  max: 3,
  windowSeconds: 3600,
});

/** The longest email a reset is asked for under its own key (longer ones are no account's). */
const EMAIL_KEY_MAX = 256;

/**
 * A forgotten password, reset by a link sent by email: the answer to asking is the same whether
 * the email has an account or not, and the mail is sent after answering (its time tells nothing
 * either). Only the token's digest is stored; setting the password ends every session.
 */
export class PasswordResets {
  private readonly unit: AuditedUnit<Pick<AccountStore, 'setPasswordHash'>>;

  constructor(private readonly deps: PasswordResetDeps) {
    this.unit = deps.unit ?? unaudited(deps.accounts);
  }

  async request(email: string, address: string): Promise<void> {
    const normalised = normaliseEmail(email).slice(0, EMAIL_KEY_MAX);
    for (const [limiter, key] of [
      [this.deps.perAddress, address],
      [this.deps.perEmail, normalised],
    ] as const) {
      const attempt = await limiter.consume(key);
      if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
    }
    const account = await this.deps.accounts.findByEmail(normalised);
    if (!account || account.suspendedAt !== null) return;
    // Not awaited: writing the token takes time an unknown email would not, and the answer must
    // not tell the two apart.
    void this.issue(account)
      .then((link) =>
        this.deps.mailer.send({ to: account.email, subject: 'Reset your password', text: resetMail(account, link) }),
      )
      .catch((error: unknown) => this.deps.onMailError(error));
  }

  /** For an operator at the CLI: a reset link for that account (when no mail server is set up). */
  async linkFor(email: string): Promise<{ account: Account; link: string; expiresAt: number }> {
    const account = await this.deps.accounts.findByEmail(normaliseEmail(email));
    if (!account) throw new NotFoundError('account');
    return { account, link: await this.issue(account), expiresAt: this.deps.clock.now() + RESET_LIFETIME_MS };
  }

  /** Whether a link's token still works (its page shows the form, or says it has ended). */
  async usable(token: string): Promise<boolean> {
    return wellFormed(token) && (await this.deps.resets.find(digest(token), this.deps.clock.now())) !== null;
  }

  /**
   * Sets the new password (the usual rules, checked before the token is spent) and ends every
   * session of the person. Null when the token does not work (used, older than an hour, unknown).
   */
  async reset(token: string, password: string, field = 'password'): Promise<Account | null> {
    const bag = new FieldErrorBag();
    checkPassword(password, bag, field);
    bag.throwIfAny();
    if (!wellFormed(token)) return null;
    const now = this.deps.clock.now();
    if ((await this.deps.resets.find(digest(token), now)) === null) return null;
    const hash = await this.deps.hasher.hash(password);
    const userId = await this.deps.resets.use(digest(token), now);
    if (userId === null) return null;
    const account = await this.deps.accounts.findById(userId);
    if (!account) return null;
    const at = this.deps.clock.now();
    await this.unit(async (tx) => {
      await tx.store.setPasswordHash(userId, hash);
      await recordAccountChange(tx.audit, {
        userId,
        actor: selfThroughWeb(userId),
        action: 'account.password_changed',
        changes: { password: 'changed' },
        at,
      });
    });
    await this.deps.sessions.deleteAll(userId, null);
    await this.deps.challenges.deleteAll(userId);
    await this.deps.resets.endAll(userId, now);
    return account;
  }

  private async issue(account: Account): Promise<string> {
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await this.deps.resets.insert(account.id, digest(token), now, now + RESET_LIFETIME_MS);
    return `${this.deps.appUrl}/login/reset/${token}`;
  }
}

const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

function resetMail(account: Account, link: string): string {
  return [
    `Hello ${account.name},`,
    '',
    'Someone (hopefully you) asked to reset the password of your linkpix account.',
    'Open this link within an hour to choose a new one; it works once:',
    '',
    link,
    '',
    'Setting a new password signs you out everywhere. If you did not ask, ignore this email: your password stays as it is.',
  ].join('\n');
}
