import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../core/accounts/password-hasher.ts';

/**
 * argon2id with the library's defaults (OWASP's minimum: 19 MiB, 2 passes, 1 lane); the
 * parameters travel inside each hash, so raising them later still verifies older hashes.
 */
export class Argon2Hasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}
