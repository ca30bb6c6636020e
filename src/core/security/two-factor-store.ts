/** A person's TOTP enrolment; confirmedAt is null until a first code proved it. */
export interface TotpEnrolment {
  secret: string;
  createdAt: number;
  confirmedAt: number | null;
  lastStep: number | null;
}

/**
 * Two-factor state, keyed by the person's id (today an account's id). The secret is sealed at
 * rest by the adapter; recovery codes are stored as digests only.
 */
export interface TwoFactorStore {
  find(userId: number): Promise<TotpEnrolment | null>;
  /** Starts (or starts again) an enrolment; refused (false) while a confirmed one exists. */
  start(userId: number, secret: string, now: number): Promise<boolean>;
  /** Confirms the enrolment at that step and replaces the recovery codes, in one transaction; false when there is none to confirm. */
  confirm(userId: number, step: number, codeHashes: readonly string[], now: number): Promise<boolean>;
  /** Records the step as used when it is newer than the last one used; false: already used (or older). */
  acceptStep(userId: number, step: number): Promise<boolean>;
  /** Marks one unused recovery code used; false when the person has no such unused code. */
  useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean>;
  recoveryCodesLeft(userId: number): Promise<number>;
  replaceRecoveryCodes(userId: number, codeHashes: readonly string[]): Promise<void>;
  /** Removes the enrolment and the recovery codes. */
  remove(userId: number): Promise<void>;
}

/** A pending sign-in: the password was right, the code is still to come. */
export interface SignInChallenge {
  userId: number;
  remember: boolean;
}

/** The half-signed-in state: only its digest is stored, and it opens nothing but the code's page. */
export interface ChallengeStore {
  insert(userId: number, tokenHash: string, remember: boolean, now: number, expiresAt: number): Promise<void>;
  /** The live challenge of that digest, or null (unknown or past its time). */
  find(tokenHash: string, now: number): Promise<SignInChallenge | null>;
  /** Ends the challenge; false when it was already ended (another request used it). */
  delete(tokenHash: string): Promise<boolean>;
  /** Ends every pending challenge of the person (a new password makes the old one's half-sign-ins worthless). */
  deleteAll(userId: number): Promise<void>;
}
