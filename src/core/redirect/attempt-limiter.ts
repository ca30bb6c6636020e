import type { AttemptPolicy } from '../shared/attempt-limiter.ts';

/** Guesses of a link's password: per client address and link, on /{alias} and /{alias}/+ alike. */
export const PASSWORD_ATTEMPTS: AttemptPolicy = Object.freeze({ name: 'password', max: 5, windowSeconds: 60 });

export function passwordAttemptKey(clientAddress: string, linkId: number): string {
  return `${clientAddress}|${linkId}`;
}
