import { randomBytes } from 'node:crypto';
import { digest } from '../shared/secrets.ts';

/** How many recovery codes a person is given at a time. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford's base32 without I, L, O, U: nothing to misread when typed from paper.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Sixteen characters (80 random bits) in four groups: XXXX-XXXX-XXXX-XXXX. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i]! % 32];
  return out.match(/.{4}/g)!.join('-');
}

/** Case, spaces and dashes do not matter; letters read as digits by mistake are read back. */
function normaliseRecoveryCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** A code's digest, bound to its owner: the same code of two people hashes apart. */
export function recoveryCodeHash(userId: number, code: string): string {
  return digest(`${userId}:${normaliseRecoveryCode(code)}`);
}
