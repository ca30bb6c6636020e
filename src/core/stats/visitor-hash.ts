import { createHmac, hash } from 'node:crypto';

const SALTS_KEPT = 8;

/**
 * Recognises a returning visitor within one local day without keeping who it is.
 *
 * hash = SHA-256(salt(day) | linkId | address | User-Agent), cut to 132 bits, where
 * salt(day) = HMAC-SHA256(secret, day) and day is the click's local day in the account's zone.
 * Every instance derives the same salt from the shared secret, so they agree; the salt changes
 * with the day, so the same person gets unrelated hashes on different days and on different
 * links. Neither the address nor the User-Agent is stored, and the hashes themselves are
 * deleted two days later (see the retention job).
 */
export class VisitorHasher {
  private readonly salts = new Map<string, string>();

  constructor(private readonly secret: string) {}

  hash(linkId: number, day: string, address: string, userAgent: string): string {
    // A one-shot hash of the secret salt and the visit: the redirect pays for it on every
    // click, and it costs less than setting up an HMAC object (docs/performance.md). The salt
    // is secret and fixed length, so the visitor data cannot be forged into another day's hash.
    return hash('sha256', `${this.salt(day)}\n${linkId}\n${address}\n${userAgent}`, 'base64url').slice(0, 22);
  }

  private salt(day: string): string {
    let salt = this.salts.get(day);
    if (salt) return salt;
    salt = createHmac('sha256', this.secret).update(`linkpix visitor salt ${day}`).digest('base64url');
    if (this.salts.size >= SALTS_KEPT) this.salts.delete(this.salts.keys().next().value!);
    this.salts.set(day, salt);
    return salt;
  }
}
