import { UnauthenticatedError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import { digest, randomToken } from '../shared/secrets.ts';
import type { Account } from '../accounts/account.ts';
import type { AccountStore } from '../accounts/account-store.ts';
import type { Client, SignedIn, SignInService } from '../accounts/sign-in-service.ts';
import type { ChallengeStore } from './two-factor-store.ts';
import type { TwoFactorService } from './two-factor-service.ts';

export interface TwoStepSignInDeps {
  signIn: SignInService;
  twoFactor: TwoFactorService;
  challenges: ChallengeStore;
  accounts: Pick<AccountStore, 'findById'>;
  clock: Clock;
}

/** Time to type the code after the password; then the password again. */
export const CHALLENGE_LIFETIME_MS = 10 * 60_000;

export type FirstStep = { kind: 'signed-in'; signedIn: SignedIn } | { kind: 'code'; token: string };

/**
 * Signing in with a password, then a code for a person with two-factor on. Between the two the
 * browser holds a challenge token: not a session (it resolves to nobody on every other page),
 * stored as a digest, valid a few minutes, used once.
 */
export class TwoStepSignIn {
  constructor(private readonly deps: TwoStepSignInDeps) {}

  async begin(email: string, password: string, client: Client, remember: boolean): Promise<FirstStep> {
    return this.proven(await this.deps.signIn.checkCredentials(email, password, client), client, remember);
  }

  /** A first factor already proven (a password, or an OpenID provider's sign-in): a session, or a code to ask. */
  async proven(account: Account, client: Client, remember: boolean): Promise<FirstStep> {
    if (!(await this.deps.twoFactor.enabled(account.id)))
      return { kind: 'signed-in', signedIn: await this.deps.signIn.open(account, client, remember) };
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await this.deps.challenges.insert(account.id, digest(token), remember, now, now + CHALLENGE_LIFETIME_MS);
    return { kind: 'code', token };
  }

  /** Whether a challenge token is still good (the code's page shows its form, or sends back to the password). */
  async pending(token: string): Promise<boolean> {
    return (await this.find(token)) !== null;
  }

  /**
   * The code for a challenge: a session when right. UnauthenticatedError: no such challenge (or
   * ended); ValidationError on `code`: wrong or used; TooManyAttemptsError past the person's limit.
   */
  async complete(token: string, code: string, client: Client): Promise<{ signedIn: SignedIn; remember: boolean }> {
    const challenge = await this.find(token);
    if (!challenge) throw new UnauthenticatedError();
    const account = await this.deps.accounts.findById(challenge.userId);
    if (!account || account.suspendedAt !== null) throw new UnauthenticatedError();
    await this.deps.twoFactor.verify(account.id, code);
    if (!(await this.deps.challenges.delete(digest(token)))) throw new UnauthenticatedError();
    return { signedIn: await this.deps.signIn.open(account, client, challenge.remember), remember: challenge.remember };
  }

  private find(token: string) {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return Promise.resolve(null);
    return this.deps.challenges.find(digest(token), this.deps.clock.now());
  }
}
