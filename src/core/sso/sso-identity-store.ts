import type { Account, NewAccount } from '../accounts/account.ts';

/** A person at an OpenID provider: the issuer and its never-reassigned subject (OpenID Connect Core, 5.7). */
export interface SsoIdentity {
  issuer: string;
  subject: string;
}

/** An identity linked to a person, and since when. */
export interface LinkedIdentity extends SsoIdentity {
  createdAt: number;
}

/** What an unlink did: the identity is gone, kept as the last way in, or was not the person's. */
export type UnlinkOutcome = 'unlinked' | 'last' | 'absent';

/** Which person a provider's identity signs in as, kept so a later email change there still matches. */
export interface SsoIdentityStore {
  /** The person linked to the identity, or null. */
  findUser(identity: SsoIdentity): Promise<number | null>;
  /** Links the identity to the person; an identity already linked keeps its person. */
  link(userId: number, identity: SsoIdentity, now: number): Promise<void>;
  /** The person's linked identities, oldest first. */
  ofUser(userId: number): Promise<LinkedIdentity[]>;
  /**
   * Unlinks the identity from the person unless it is their last way in (no password, no other
   * identity), checked and deleted at once: two unlinks at the same time cannot both pass.
   * 'absent' when it was not theirs.
   */
  unlink(userId: number, identity: SsoIdentity): Promise<UnlinkOutcome>;
  /** Makes an account without a password and links the identity to it, in one transaction. */
  createUser(account: NewAccount, identity: SsoIdentity, now: number): Promise<Account>;
}
