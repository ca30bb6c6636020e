import { AccountsService } from '../../core/accounts/accounts-service.ts';
import {
  SIGN_IN_PER_ACCOUNT,
  SIGN_IN_PER_ADDRESS,
  SIGN_UP_LIMITERS,
  SignInService,
} from '../../core/accounts/sign-in-service.ts';
import { EmailVerification, VERIFY_PER_ADDRESS, VERIFY_PER_EMAIL } from '../../core/security/email-verification.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import { announcingEnds } from '../../core/live/session-ends.ts';
import { Argon2Hasher } from '../../adapters/passwords/argon2-hasher.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import { SqlAccountStore } from '../../adapters/storage/stores/account-store.ts';
import { SqlSessionStore } from '../../adapters/storage/stores/session-store.ts';
import { SqlEmailVerificationStore } from '../../adapters/storage/stores/email-verification-store.ts';
import { SqlAuditLog } from '../../adapters/storage/stores/audit-store.ts';
import { errorsOf, windowLimiterOf, type Base } from './base.ts';

/** People: their accounts, sessions, sign-up and sign-in, and the email check EMAIL_VERIFICATION asks for. */
export function accountServices(base: Base, deps: { forgetQuota: (id: number) => Promise<void>; mailer: Mailer }) {
  const { storage, tuning, visits, clock } = base;
  const store = new SqlAccountStore(storage.db);
  // Every way a session ends goes through the store: its live stream hears of it at once (docs/design/teams.md).
  const sessions = announcingEnds(new SqlSessionStore(storage.db), visits.sessionEnds);
  // A person's own changes (keys, profile, password) and their entries in the personal workspace's log.
  const unit = unitOfWorkOn(storage.db, (trx) => ({ store: new SqlAccountStore(trx), audit: new SqlAuditLog(trx) }));
  const limiter = windowLimiterOf(visits);
  // One pair of budgets for sign-ups and the profile's email changes.
  const signUps = {
    perAddress: limiter(
      SIGN_UP_LIMITERS.perAddress,
      tuning.SIGNUP_LIMIT_PER_ADDRESS,
      tuning.SIGNUP_LIMIT_WINDOW_SECONDS,
    ),
    perEmail: limiter(SIGN_UP_LIMITERS.perEmail, tuning.SIGNUP_LIMIT_PER_EMAIL, tuning.SIGNUP_LIMIT_WINDOW_SECONDS),
  };
  const service = new AccountsService(store, clock, {
    invalidation: visits.invalidation,
    forgetQuota: deps.forgetQuota,
    unit,
    signUps,
  });
  const hasher = new Argon2Hasher();
  const verification = verificationOf(base, store, deps.mailer);
  const signIn = new SignInService({
    accounts: store,
    sessions,
    hasher,
    perAccount: visits.limiter(SIGN_IN_PER_ACCOUNT),
    perAddress: visits.limiter(SIGN_IN_PER_ADDRESS),
    signUps,
    emailPending: verification ? (id) => verification.pending(id) : undefined,
    createAccount: verification ? (profile, hash, now) => verification.createUnverified(profile, hash, now) : undefined,
    unit,
    clock,
  });
  return { store, sessions, unit, service, hasher, verification, signIn };
}

/** EMAIL_VERIFICATION=required: a new account signs in once its email is proven; else null. */
function verificationOf(base: Base, accounts: SqlAccountStore, mailer: Mailer): EmailVerification | null {
  const { config, storage, visits, clock } = base;
  if (config.EMAIL_VERIFICATION !== 'required') return null;
  return new EmailVerification({
    store: new SqlEmailVerificationStore(storage.db),
    accounts,
    mailer,
    appUrl: config.APP_URL,
    perAddress: visits.limiter(VERIFY_PER_ADDRESS),
    perEmail: visits.limiter(VERIFY_PER_EMAIL),
    onMailError: errorsOf(base, 'linkpix: a verification email was not sent:'),
    registration: unitOfWorkOn(storage.db, (trx) => ({
      accounts: new SqlAccountStore(trx),
      store: new SqlEmailVerificationStore(trx),
    })),
    clock,
  });
}
