/** Sign-ups awaiting their email's proof (docs/design/teams.md): only token digests are stored. */
export interface EmailVerificationStore {
  /** Marks the person unverified (kept if already so) and stores a link's digest. */
  insert(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void>;
  pending(userId: number): Promise<boolean>;
  /** Uses a live, unused link: the person is verified and every link of theirs ends. Their id, or null. */
  use(tokenHash: string, now: number): Promise<number | null>;
}
