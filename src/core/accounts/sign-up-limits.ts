import { TooManyAttemptsError } from '../shared/errors.ts';
import type { AttemptLimiter } from '../shared/attempt-limiter.ts';
import { normaliseEmail } from './email.ts';

/** Sign-ups per client address and per email (docs/design/teams.md); absent: that one is not limited. */
export interface SignUpLimits {
  perAddress?: AttemptLimiter | undefined;
  perEmail?: AttemptLimiter | undefined;
}

/** Longer emails are refused anyway; their tries are counted under their first characters. */
const EMAIL_KEY_MAX = 256;

/**
 * Counts one try at taking `email` from `address`, before anything is checked, refused tries
 * too: otherwise asking which emails have an account ("already taken") would be free. A sign-up
 * and an email change on the profile spend the same budgets (docs/design/secrets.md).
 */
export async function spendSignUpTry(limits: SignUpLimits | undefined, address: string, email: string): Promise<void> {
  for (const [limiter, key] of [
    [limits?.perAddress, address],
    // Bounded: a megabyte of "email" is one key, not a megabyte of one.
    [limits?.perEmail, normaliseEmail(email).slice(0, EMAIL_KEY_MAX)],
  ] as const) {
    const attempt = await limiter?.consume(key);
    if (attempt && !attempt.allowed) throw new TooManyAttemptsError(attempt.retryAfterSeconds);
  }
}
