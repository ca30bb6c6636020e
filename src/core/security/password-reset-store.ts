/** Reset links' tokens, as digests, keyed by the person's id (today an account's id). */
export interface PasswordResetStore {
  insert(userId: number, tokenHash: string, now: number, expiresAt: number): Promise<void>;
  /** The person of a live, unused token, or null. */
  find(tokenHash: string, now: number): Promise<number | null>;
  /** Marks a live token used, once: the person's id, or null when it was not live (used, ended, unknown). */
  use(tokenHash: string, now: number): Promise<number | null>;
  /** Ends every other reset link of the person (a password set makes them pointless). */
  endAll(userId: number, now: number): Promise<void>;
}
