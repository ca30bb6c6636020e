/**
 * Limits guesses of something secret (a link's password) per client and link. Exact within
 * one instance; shared across instances when backed by a shared store.
 */
export interface AttemptLimiter {
  /** Seconds the key must wait before trying again; 0 when it may try now. */
  blockedFor(key: string): Promise<number>;
  /** Counts one wrong attempt against the key. */
  recordFailure(key: string): Promise<void>;
}

export const PASSWORD_ATTEMPTS = { max: 5, windowSeconds: 60 } as const;
