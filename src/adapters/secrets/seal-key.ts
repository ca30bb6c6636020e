import { createHash, randomBytes } from 'node:crypto';

/**
 * A key that seals secrets at rest (docs/design/secrets.md): its AES-256 key, and its id, which
 * every secret sealed under it names, so a start tells which keys it needs without opening
 * anything. The id is a digest: it says nothing of the key.
 */
export interface SealKey {
  /** '' for the database's key of old (`v1.` seals). */
  id: string;
  aes: Buffer;
}

const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** What SEAL_KEY and the key file hold, said once for the configuration's message and the file's. */
export const SEAL_KEY_FORMAT =
  'keys of 32 random bytes in base64url or base64 (43 characters each, or 44 with its `=`), comma-separated, the first sealing: `linkpix seal-key new` prints one';

/** SEAL_KEY's text (or the key file's): the keys in order; the first seals, every one opens. */
export function parseSealKeys(text: string): string[] {
  const keys = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    // `openssl rand -base64 32` spells the same 32 bytes in base64: taken as its base64url.
    .map((k) => k.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''));
  for (const key of keys)
    if (!KEY_TEXT.test(key) || Buffer.from(key, 'base64url').length !== 32)
      throw new Error(`must be ${SEAL_KEY_FORMAT}`);
  if (new Set(keys).size !== keys.length) throw new Error('names one key twice');
  return keys;
}

/** A new key's text: 32 random bytes, base64url. */
export function newSealKeyText(): string {
  return randomBytes(32).toString('base64url');
}

export function sealKeyOf(text: string): SealKey {
  const raw = Buffer.from(text, 'base64url');
  return {
    id: createHash('sha256').update('linkpix seal key id\0').update(raw).digest('base64url').slice(0, 11),
    aes: createHash('sha256').update('linkpix seal key\0').update(raw).digest(),
  };
}

/** The key derived from the database's generated secret (`app_secrets`), as it always was. */
export function databaseSealKey(material: string): SealKey {
  return { id: '', aes: createHash('sha256').update(`linkpix secret box:${material}`).digest() };
}
