import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealKey } from './seal-key.ts';

/** The keys a box seals and opens with: the first seals, any opens what names it. */
export interface KeyRing {
  sealing: SealKey;
  opening: readonly SealKey[];
}

/** A sealed secret names no key this instance has (SEAL_KEY wrong, or missing a key). */
export class UnknownSealKeyError extends Error {}

/**
 * Seals short secrets at rest (a TOTP seed; an integration's token) with AES-256-GCM, whatever
 * they are: `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url) under a key from outside the
 * database, `v1.<iv>.<tag>.<ciphertext>` under the database's own key of old. The keys come from
 * the key holder (secrets/seal-keys.ts, docs/design/secrets.md).
 */
export class SecretBox {
  constructor(private readonly keys: { ring(fresh?: boolean): Promise<KeyRing> }) {}

  /** Sealed under the newest key: the ring is read afresh (sealing is rare: an enrolment). */
  async seal(plain: string): Promise<string> {
    return sealWith((await this.keys.ring(true)).sealing, plain);
  }

  async open(sealed: string): Promise<string> {
    try {
      return openWith((await this.keys.ring()).opening, sealed);
    } catch (error) {
      if (!(error instanceof UnknownSealKeyError)) throw error;
      return openWith((await this.keys.ring(true)).opening, sealed);
    }
  }
}

/** A box on fixed keys (tests, tools). */
export function fixedKeys(ring: KeyRing): { ring(): Promise<KeyRing> } {
  return { ring: async () => ring };
}

export function sealWith(key: SealKey, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.aes, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')];
  return (key.id === '' ? ['v1', ...parts] : ['v2', key.id, ...parts]).join('.');
}

export function openWith(keys: readonly SealKey[], sealed: string): string {
  const id = sealedKeyId(sealed);
  if (id === null) throw new Error('not a sealed secret');
  const key = keys.find((k) => k.id === id);
  if (!key)
    throw new UnknownSealKeyError(
      id === ''
        ? 'sealed under the database key, which this instance does not use'
        : `sealed under key ${id}, which this instance does not have`,
    );
  const [iv, tag, body] = sealed.split('.').slice(id === '' ? 1 : 2);
  const decipher = createDecipheriv('aes-256-gcm', key.aes, Buffer.from(iv!, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
}

/** The id of the key a secret is sealed under ('' for the database key), or null when it is not one. */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split('.');
  if (parts[0] === 'v1' && parts.length === 4) return '';
  if (parts[0] === 'v2' && parts.length === 5 && parts[1] !== '') return parts[1]!;
  return null;
}
