import { createHmac } from 'node:crypto';

const SALTS_KEPT = 8;

/**
 * Recognises a returning visitor within one local day without keeping who it is.
 *
 * hash = HMAC-SHA256(salt(day), linkId | address | User-Agent), cut to 128 bits, where
 * salt(day) = HMAC-SHA256(secret, day) and day is the click's local day in the account's zone.
 * Every instance derives the same salt from the shared secret, so they agree; the salt changes
 * with the day, so the same person gets unrelated hashes on different days and on different
 * links. Neither the address nor the User-Agent is stored, and the hashes themselves are
 * deleted two days later (see the retention job).
 */
export class VisitorHasher {
  private readonly salts = new Map<string, Buffer>();

  constructor(private readonly secret: string) {}

  hash(linkId: number, day: string, address: string, userAgent: string): string {
    return createHmac('sha256', this.salt(day))
      .update(`${linkId}\n${address}\n${userAgent}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  private salt(day: string): Buffer {
    let salt = this.salts.get(day);
    if (salt) return salt;
    salt = createHmac('sha256', this.secret).update(`linkpix visitor salt ${day}`).digest();
    if (this.salts.size >= SALTS_KEPT) this.salts.delete(this.salts.keys().next().value!);
    this.salts.set(day, salt);
    return salt;
  }
}
