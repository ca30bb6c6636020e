/**
 * Limits guesses of a secret (a link's password; later a login or a stats password) per key,
 * usually client × target. An attempt is consumed before the secret is checked, atomically, so
 * guesses sent at once cannot all pass a check made before any of them was counted.
 */
export interface AttemptLimiter {
  /** Counts one attempt against the key and says whether it may go ahead. */
  consume(key: string): Promise<Attempt>;
  /** Forgets the key's attempts: the secret was right, its owner should not wait. */
  reset(key: string): Promise<void>;
}

export type Attempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** At most `max` attempts per key in a window of `windowSeconds` that opens with its first. */
export interface AttemptPolicy {
  /** Names the limiter's keys apart from other limiters' in a shared store. */
  name: string;
  max: number;
  windowSeconds: number;
}

export const ALLOWED: Attempt = Object.freeze({ allowed: true });

/** Rejects a policy no limiter can apply; Redis expires keys in whole seconds. */
export function checkPolicy(policy: AttemptPolicy): void {
  if (!/^[a-z][a-z0-9-]*$/.test(policy.name))
    throw new RangeError('name must be lower-case letters, digits and dashes');
  if (!Number.isInteger(policy.max) || policy.max < 1) throw new RangeError('max must be a positive integer');
  if (!Number.isInteger(policy.windowSeconds) || policy.windowSeconds < 1) {
    throw new RangeError('windowSeconds must be a positive integer');
  }
}
