import { TWO_FACTOR_ATTEMPTS, TwoFactorService } from '../../core/security/two-factor-service.ts';
import { TwoStepSignIn } from '../../core/security/two-step-sign-in.ts';
import { PasswordResets, RESET_PER_ADDRESS, RESET_PER_EMAIL } from '../../core/security/password-resets.ts';
import type { EmailVerification } from '../../core/security/email-verification.ts';
import type { Mailer } from '../../core/mail/mailer.ts';
import type { SsoServices } from '../../adapters/web/app/web-context.ts';
import { SecretBox } from '../../adapters/secrets/secret-box.ts';
import type { SealKeys } from '../../adapters/secrets/seal-keys.ts';
import { OtpauthTotp } from '../../adapters/totp/otpauth-totp.ts';
import { unitOfWorkOn } from '../../adapters/storage/transactions.ts';
import { SqlChallengeStore, SqlTwoFactorStore } from '../../adapters/storage/stores/two-factor-store.ts';
import { SqlPasswordResetStore } from '../../adapters/storage/stores/password-reset-store.ts';
import { SqlSsoIdentityStore } from '../../adapters/storage/stores/sso-identity-store.ts';
import { SqlAuditLog } from '../../adapters/storage/stores/audit-store.ts';
import { errorsOf, type Base } from './base.ts';
import type { accountServices } from './accounts.ts';
import { ssoOf } from './sso.ts';

/** Two-factor sign-in and password reset by email (docs/design/teams.md). */
export interface SecurityServices {
  twoFactor: TwoFactorService;
  twoStep: TwoStepSignIn;
  resets: PasswordResets;
  /** Single sign-on: null unless OIDC_ISSUER is set. */
  sso: SsoServices | null;
  /** EMAIL_VERIFICATION=required; null: off. */
  verification: EmailVerification | null;
  /** Whether reset links leave by email (a mail server is set); else only the log and the CLI have them. */
  mailed: boolean;
}

/** Two-factor, the two-step sign-in, password resets and single sign-on, over the people's accounts. */
export function securityServices(
  base: Base,
  people: ReturnType<typeof accountServices>,
  deps: { sealKeys: SealKeys; mailer: Mailer; mailed: boolean },
): SecurityServices {
  const { config, storage, visits, clock } = base;
  const { store: accounts, signIn } = people;
  // The two-factor seeds' box (the integrations have theirs over the same keys): docs/design/secrets.md.
  const secretBox = new SecretBox(deps.sealKeys);
  const twoFactor = new TwoFactorService({
    store: new SqlTwoFactorStore(storage.db, secretBox),
    unit: unitOfWorkOn(storage.db, (trx) => ({
      store: new SqlTwoFactorStore(trx, secretBox),
      audit: new SqlAuditLog(trx),
    })),
    totp: new OtpauthTotp(),
    attempts: visits.limiter(TWO_FACTOR_ATTEMPTS),
    confirmPassword: (account, password, field) => signIn.confirmPassword(account, password, field),
    issuer: 'linkpix',
    clock,
  });
  const twoStep = new TwoStepSignIn({
    signIn,
    twoFactor,
    challenges: new SqlChallengeStore(storage.db),
    accounts,
    clock,
  });
  const resets = new PasswordResets({
    resets: new SqlPasswordResetStore(storage.db),
    accounts,
    sessions: people.sessions,
    challenges: new SqlChallengeStore(storage.db),
    hasher: people.hasher,
    mailer: deps.mailer,
    appUrl: config.APP_URL,
    perAddress: visits.limiter(RESET_PER_ADDRESS),
    perEmail: visits.limiter(RESET_PER_EMAIL),
    onMailError: errorsOf(base, 'linkpix: a password reset email was not sent:'),
    unit: people.unit,
    clock,
  });
  const identities = new SqlSsoIdentityStore(storage.db, storage.engine);
  const sso = ssoOf(config, { identities, accounts, twoStep, clock });
  return { twoFactor, twoStep, sso, verification: people.verification, resets, mailed: deps.mailed };
}
