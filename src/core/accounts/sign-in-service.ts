import {
  FieldErrorBag,
  ForbiddenError,
  NotFoundError,
  TooManyAttemptsError,
  UnauthenticatedError,
  ValidationError,
} from '../shared/errors.ts';
import { messages } from '../shared/messages.ts';
import type { Clock } from '../shared/clock.ts';
import type { AttemptLimiter, AttemptPolicy } from '../shared/attempt-limiter.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Account, NewAccount, Session } from './account.ts';
import type { AccountStore, SessionStore } from './account-store.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { checkPassword, checkProfile, type ProfileInput } from './account-rules.ts';
import { normaliseEmail } from './email.ts';
import { spendSignUpTry, type SignUpLimits } from './sign-up-limits.ts';
import { recordAccountChange, selfThroughWeb } from './account-audit.ts';
import { CLI_OPERATOR, type AuditActor } from '../audit/audit-entry.ts';
import { unaudited, type AuditedUnit } from '../audit/record-change.ts';

export interface SignInServiceDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  hasher: PasswordHasher;
  /** Guesses per email address. */
  perAccount: AttemptLimiter;
  /** Guesses per client address, whatever the email. */
  perAddress: AttemptLimiter;
  /** Sign-ups per client address and per email (absent: not limited). */
  signUps?: SignUpLimits | undefined;
  /** EMAIL_VERIFICATION=required: whether the person has still to open their link (absent: off). */
  emailPending?: ((userId: number) => Promise<boolean>) | undefined;
  /** EMAIL_VERIFICATION=required: stores a sign-up's account together with its "unverified" mark (absent: the account alone). */
  createAccount?: ((profile: NewAccount, passwordHash: string, now: number) => Promise<Account>) | undefined;
  clock: Clock;
  /** A new password and its audit entry commit together (docs/design/teams.md); absent: no entry. */
  unit?: AuditedUnit<Pick<AccountStore, 'setPasswordHash'>> | undefined;
}

/** What a refusal for an email not yet verified names (the web app offers to resend). */
export const EMAIL_NOT_VERIFIED = 'email-verification';

/** Where a sign-in comes from, kept with the session so its owner can tell sessions apart. */
export interface Client {
  address: string;
  userAgent: string | null;
}

export interface SignedIn {
  account: Account;
  session: Session;
  /** The cookie's value: shown once, stored only as its digest. */
  token: string;
}

const DAY = 86_400_000;
/** A session ends this long after sign-in ("keep me signed in": 30 days), whatever its use. */
export const SESSION_LIFETIME = { short: DAY, remembered: 30 * DAY } as const;
/** last_seen_at is written at most this often per session: a page view is not a database write. */
const TOUCH_EVERY_MS = 5 * 60_000;

/**
 * Signing up, in and out of the web app, and the sessions that result. Each answer to a failed
 * sign-in is the same whether the email is unknown, has no password or the password is wrong.
 */
export class SignInService {
  /** Verified against when the email is unknown, so that answer takes as long as a wrong password. */
  private decoy: Promise<string> | null = null;

  private readonly unit: AuditedUnit<Pick<AccountStore, 'setPasswordHash'>>;

  constructor(private readonly deps: SignInServiceDeps) {
    this.unit = deps.unit ?? unaudited(deps.accounts);
  }

  /** Stores the new password's hash and an `account.password_changed` entry (the password as "changed") in one unit. */
  private async storePassword(userId: number, hash: string, actor: AuditActor): Promise<void> {
    const at = this.deps.clock.now();
    await this.unit(async (tx) => {
      await tx.store.setPasswordHash(userId, hash);
      await recordAccountChange(tx.audit, {
        userId,
        actor,
        action: 'account.password_changed',
        changes: { password: 'changed' },
        at,
      });
    });
  }

  /**
   * Every try counts, refused or not, before anything is checked: a script making accounts, or
   * asking which emails have one, is slowed whatever it sends.
   */
  async signUp(input: ProfileInput & { password: string }, client: Client): Promise<SignedIn> {
    return this.open(await this.register(input, client), client, false);
  }

  /** The account of a sign-up, made without a session (for one that verifies its email first). */
  async register(input: ProfileInput & { password: string }, client: Client): Promise<Account> {
    await spendSignUpTry(this.deps.signUps, client.address, input.email);
    const bag = new FieldErrorBag();
    const profile = checkProfile(input, bag);
    checkPassword(input.password, bag);
    bag.throwIfAny();
    if (await this.deps.accounts.findByEmail(profile.email)) throw ValidationError.of('email', messages.taken('email'));
    const hash = await this.deps.hasher.hash(input.password);
    const create =
      this.deps.createAccount ??
      ((p: NewAccount, h: string, now: number) => this.deps.accounts.createWithPassword(p, h, now));
    return create(profile, hash, this.deps.clock.now());
  }

  async signIn(email: string, password: string, client: Client, remember: boolean): Promise<SignedIn> {
    return this.open(await this.checkCredentials(email, password, client), client, remember);
  }

  /**
   * The account of a right email and password, guesses counted first; opens no session (a
   * second factor may still be asked: security/two-step-sign-in.ts).
   */
  async checkCredentials(email: string, password: string, client: Client): Promise<Account> {
    const normalised = normaliseEmail(email);
    for (const [limiter, key] of [
      [this.deps.perAddress, client.address],
      [this.deps.perAccount, normalised],
    ] as const) {
      const attempt = await limiter.consume(key);
      if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
    }
    const found = await this.deps.accounts.findCredentials(normalised);
    const hash = found?.passwordHash ?? (await this.decoyHash());
    const right = await this.deps.hasher.verify(hash, password);
    if (!found || found.passwordHash === null || !right) throw new UnauthenticatedError();
    if (found.account.suspendedAt !== null) throw new UnauthenticatedError();
    // Told only after the right password: the refusal says nothing about an email to a guesser.
    if (this.deps.emailPending && (await this.deps.emailPending(found.account.id)))
      throw new ForbiddenError(EMAIL_NOT_VERIFIED);
    await this.deps.perAccount.reset(normalised);
    return found.account;
  }

  /** The session of a cookie's token and its account; null when unknown, ended or suspended. */
  async resolve(token: string): Promise<{ account: Account; session: Session } | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const now = this.deps.clock.now();
    const found = await this.deps.sessions.find(digest(token), now);
    if (!found || found.account.suspendedAt !== null) return null;
    if (now - found.session.lastSeenAt > TOUCH_EVERY_MS) await this.deps.sessions.touch(found.session.id, now);
    return found;
  }

  async signOut(accountId: number, sessionId: number): Promise<void> {
    await this.deps.sessions.delete(accountId, sessionId);
  }

  list(accountId: number): Promise<Session[]> {
    return this.deps.sessions.list(accountId, this.deps.clock.now());
  }

  async endSession(accountId: number, sessionId: number): Promise<void> {
    if (!(await this.deps.sessions.delete(accountId, sessionId))) throw new NotFoundError('session');
  }

  endOtherSessions(accountId: number, keepId: number): Promise<void> {
    return this.deps.sessions.deleteAll(accountId, keepId);
  }

  /**
   * Every session of the account ends, the one asking included; the answer is a fresh session
   * for the browser that changed it, so its owner stays signed in there and nowhere else.
   * remember: the new session lasts as long as a "keep me signed in" one (the old one did).
   */
  async changePassword(
    account: Account,
    current: string,
    next: string,
    client: Client,
    remember = false,
  ): Promise<SignedIn> {
    const bag = new FieldErrorBag();
    checkPassword(next, bag, 'new_password');
    const hash = await this.deps.accounts.passwordHashOf(account.id);
    // An account made by the CLI has no password yet: it sets one without a current one. A guess
    // at the current one counts against the account's sign-in limit, as confirmPassword's does.
    if (hash !== null) {
      const attempt = await this.deps.perAccount.consume(account.email);
      if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
      if (!(await this.deps.hasher.verify(hash, current)))
        bag.add('current_password', 'The current password is wrong.');
    }
    bag.throwIfAny();
    await this.storePassword(account.id, await this.deps.hasher.hash(next), selfThroughWeb(account.id));
    await this.deps.sessions.deleteAll(account.id, null);
    return this.open(account, client, remember);
  }

  /**
   * Checks that whoever holds this session knows the account's password before something that
   * cannot be undone (deleting the account). Guesses count against the account's sign-in limit:
   * a borrowed session does not buy unlimited tries at the password.
   */
  async confirmPassword(account: Account, password: string, field = 'password'): Promise<void> {
    const attempt = await this.deps.perAccount.consume(account.email);
    if (!attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
    const hash = await this.deps.accounts.passwordHashOf(account.id);
    if (hash === null || !(await this.deps.hasher.verify(hash, password)))
      throw ValidationError.of(field, 'The password is wrong.');
  }

  /** For an operator at the CLI: sets the password of an account (ending its sessions). */
  async setPassword(email: string, password: string): Promise<Account> {
    const bag = new FieldErrorBag();
    checkPassword(password, bag);
    bag.throwIfAny();
    const account = await this.deps.accounts.findByEmail(normaliseEmail(email));
    if (!account) throw new NotFoundError('account');
    await this.storePassword(account.id, await this.deps.hasher.hash(password), CLI_OPERATOR);
    await this.deps.sessions.deleteAll(account.id, null);
    return account;
  }

  /** A new session for an account already proven (its password, and its code when it has two-factor). */
  async open(account: Account, client: Client, remember: boolean): Promise<SignedIn> {
    const token = randomToken(32);
    const now = this.deps.clock.now();
    const session = await this.deps.sessions.insert(account.id, {
      tokenHash: digest(token),
      createdAt: now,
      expiresAt: now + (remember ? SESSION_LIFETIME.remembered : SESSION_LIFETIME.short),
      userAgent: client.userAgent?.slice(0, 255) ?? null,
      address: client.address.slice(0, 64),
    });
    return { account, session, token };
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.deps.hasher.hash(randomToken(16));
    return this.decoy;
  }
}

/** The names of the sign-up limiters' keys; their counts and window are the operator's (config). */
export const SIGN_UP_LIMITERS = { perAddress: 'sign-up-address', perEmail: 'sign-up-email' } as const;

/** Guesses of one account's password, from anywhere. */
export const SIGN_IN_PER_ACCOUNT: AttemptPolicy = Object.freeze({
  name: 'sign-in-account',
  max: 10,
  windowSeconds: 900,
});
/** Sign-ins from one address, whatever the account (spraying one password over many emails). */
export const SIGN_IN_PER_ADDRESS: AttemptPolicy = Object.freeze({
  name: 'sign-in-address',
  max: 50,
  windowSeconds: 900,
});
