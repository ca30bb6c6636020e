import type { Clock } from '../shared/clock.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { emailDomainAllowed } from './email-domains.ts';
import type { SsoClaims } from './sso-sign-in.ts';
import type { LinkedIdentity, SsoIdentity, SsoIdentityStore } from './sso-identity-store.ts';

/** Why an identity is not linked: another person signs in with it, or its email's domain may not sign in this way. */
export type SsoLinkRefusal = 'taken' | 'domain';

export interface SsoLinksDeps {
  identities: SsoIdentityStore;
  /** Email domains that may sign in this way (lower case); empty: any. */
  allowedDomains: readonly string[];
  clock: Clock;
}

/**
 * A signed-in person linking their provider identity from the account's security page (issue
 * 33): they proved both sides, so no verified email is needed; an identity stays with the first
 * person it was linked to, and the last way in (no password, no other identity) is never unlinked.
 */
export class SsoLinks {
  constructor(private readonly deps: SsoLinksDeps) {}

  of(userId: number): Promise<LinkedIdentity[]> {
    return this.deps.identities.ofUser(userId);
  }

  async link(userId: number, claims: SsoClaims): Promise<'linked' | SsoLinkRefusal> {
    if (!emailDomainAllowed(claims.email, this.deps.allowedDomains)) return 'domain';
    const identity = { issuer: claims.issuer, subject: claims.subject };
    const holder = await this.deps.identities.findUser(identity);
    if (holder !== null) return holder === userId ? 'linked' : 'taken';
    await this.deps.identities.link(userId, identity, this.deps.clock.now());
    // Two people linking the same identity at once: the first one keeps it.
    return (await this.deps.identities.findUser(identity)) === userId ? 'linked' : 'taken';
  }

  /**
   * Refused (naming `sso`) when it is the person's last way in; not found when it is not theirs.
   * The store checks and deletes in one statement (docs/design/secrets.md): a check here, then a
   * delete, would let two unlinks of a person's two identities both pass.
   */
  async unlink(userId: number, identity: SsoIdentity): Promise<void> {
    const outcome = await this.deps.identities.unlink(userId, identity);
    if (outcome === 'absent') throw new NotFoundError('identity');
    if (outcome === 'last') {
      throw ValidationError.of(
        'sso',
        'This is your only way to sign in: set a password first (Forgot password? on the sign-in page mails you a link).',
      );
    }
  }
}
