import { FieldErrorBag, ValidationError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Account } from '../accounts/account.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { Client } from '../accounts/sign-in-service.ts';
import { checkProfile } from '../accounts/account-rules.ts';
import { normaliseEmail } from '../accounts/email.ts';
import type { FirstStep, TwoStepSignIn } from '../security/two-step-sign-in.ts';
import type { SsoIdentity, SsoIdentityStore } from './sso-identity-store.ts';
import { emailDomainAllowed } from './email-domains.ts';

/** What a provider said about the person, its ID token's signature, issuer, audience and nonce already checked. */
export interface SsoClaims extends SsoIdentity {
  email: string | null;
  /** Only `email_verified: true` counts: an address the provider has not checked matches nobody. */
  emailVerified: boolean;
  name: string | null;
}

/** Why a provider's person may not sign in; each has its own page. */
export type SsoRefusal = 'unverified' | 'domain' | 'closed' | 'suspended' | 'password';

export type SsoOutcome = FirstStep | { kind: 'refused'; reason: SsoRefusal };

export interface SsoSignInDeps {
  identities: SsoIdentityStore;
  accounts: Pick<AccountStore, 'findByEmail' | 'findById' | 'passwordHashOf'>;
  twoStep: Pick<TwoStepSignIn, 'proven'>;
  /** open: a person with no account yet gets one; closed: only existing accounts sign in. */
  signup: 'open' | 'closed';
  /** Email domains that may sign in this way (lower case); empty: any. */
  allowedDomains: readonly string[];
  clock: Clock;
}

/**
 * Signing in with an OpenID provider's person: the linked identity first, then a verified email,
 * then a new account when sign-up is open. Two-factor still asks its code (docs/design/teams.md).
 */
export class SsoSignIn {
  constructor(private readonly deps: SsoSignInDeps) {}

  async complete(claims: SsoClaims, client: Client): Promise<SsoOutcome> {
    const email = claims.email === null ? null : normaliseEmail(claims.email);
    if (!emailDomainAllowed(email, this.deps.allowedDomains)) return refused('domain');
    const account = await this.accountOf(claims, email);
    if (typeof account === 'string') return refused(account);
    if (account.suspendedAt !== null) return refused('suspended');
    return this.deps.twoStep.proven(account, client, false);
  }

  private async accountOf(claims: SsoClaims, email: string | null): Promise<Account | SsoRefusal> {
    const identity = { issuer: claims.issuer, subject: claims.subject };
    const linked = await this.deps.identities.findUser(identity);
    if (linked !== null) return (await this.deps.accounts.findById(linked)) ?? 'suspended';
    if (email === null || !claims.emailVerified) return 'unverified';
    const now = this.deps.clock.now();
    const existing = await this.deps.accounts.findByEmail(email);
    if (existing) {
      // With sign-up open anyone may have made this account under someone else's address and set
      // its password: joining the provider's person to it would share it with them. The operator
      // made it when sign-up is closed, and an account the provider made has no password.
      if (this.deps.signup === 'open' && (await this.deps.accounts.passwordHashOf(existing.id)) !== null)
        return 'password';
      await this.deps.identities.link(existing.id, identity, now);
      return existing;
    }
    if (this.deps.signup !== 'open') return 'closed';
    const bag = new FieldErrorBag();
    const profile = checkProfile({ email, name: (claims.name ?? '').slice(0, 255) }, bag);
    if (!bag.empty) return 'unverified';
    try {
      return await this.deps.identities.createUser(profile, identity, now);
    } catch (error) {
      // The same person's two callbacks at once: the other one made the account.
      if (!(error instanceof ValidationError)) throw error;
      const made = await this.deps.identities.findUser(identity);
      return (made === null ? null : await this.deps.accounts.findById(made)) ?? 'unverified';
    }
  }
}

const refused = (reason: SsoRefusal): SsoOutcome => ({ kind: 'refused', reason });
