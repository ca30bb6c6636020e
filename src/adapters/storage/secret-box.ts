import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals short secrets at rest (a TOTP secret) with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`,
 * base64url. The key comes from outside the sealed rows (docs/adr/0065), fetched once.
 */
export class SecretBox {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly keyMaterial: () => Promise<string>) {}

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.keyOf(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  async open(sealed: string): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', await this.keyOf(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  private keyOf(): Promise<Buffer> {
    this.key ??= this.keyMaterial().then((material) => createHash('sha256').update(`linkpix secret box:${material}`).digest());
    return this.key;
  }
}
