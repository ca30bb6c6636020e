import { digest, randomToken } from '../shared/secrets.ts';
import type { NewKey } from './account-store.ts';

const KEY_PREFIX = 'lpx_';
/** Keys are "lpx_" + 43 base64url characters (256 random bits). */
const KEY_PATTERN = /^lpx_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(name: string | null): { plaintext: string; stored: NewKey } {
  const plaintext = KEY_PREFIX + randomToken(32);
  return { plaintext, stored: { hash: digest(plaintext), prefix: plaintext.slice(0, 12), name } };
}

/** Cheap shape check first, so malformed keys never reach the database. */
export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

export function hashApiKey(plaintext: string): string {
  return digest(plaintext);
}
