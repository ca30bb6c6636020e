import { createHmac, getRandomValues, timingSafeEqual } from 'node:crypto';
import { fromBase64url, toBase64url } from './base64url.ts';

/** What a click id says of its click: the link, when, and which rule and split variant decided. */
export interface ClickIdFacts {
  linkId: number;
  /** The click's instant, in whole seconds (ms cut). */
  at: number;
  rule: number | null;
  variant: number | null;
}

export interface ReadClickId extends ClickIdFacts {
  /** The id as the store keys it: re-encoded, so two spellings of the same bytes are one click. */
  key: string;
}

export type ClickIdReading =
  { ok: true; click: ReadClickId } | { ok: false; reason: 'malformed' | 'forged' | 'expired' };

const VERSION = 1;
const NONE = 0xff;
// version 1 · link id 6 · seconds 5 · rule 1 · variant 1 · random 6 · MAC 12
const PAYLOAD = 20;
const MAC = 12;
const SIZE = PAYLOAD + MAC;

/**
 * Signed, self-contained click ids (docs/design/rules.md): the redirect makes one without reading or
 * writing anything, and a conversion is checked by its MAC alone. HMAC-SHA256 under a secret
 * kept in the database (shared by every instance), cut to 96 bits; valid for retentionDays
 * (0: for ever), as long as the click rows it is counted against.
 */
export class ClickIds {
  constructor(
    private readonly secret: string,
    private readonly retentionDays: number,
  ) {}

  issue(facts: ClickIdFacts): string {
    const bytes = new Uint8Array(SIZE);
    bytes[0] = VERSION;
    writeUint(bytes, 1, 6, facts.linkId);
    writeUint(bytes, 7, 5, Math.floor(facts.at / 1000));
    bytes[12] = small(facts.rule);
    bytes[13] = small(facts.variant);
    getRandomValues(bytes.subarray(14, PAYLOAD));
    bytes.set(this.mac(bytes.subarray(0, PAYLOAD)), PAYLOAD);
    return toBase64url(bytes);
  }

  read(text: string, now: number): ClickIdReading {
    const bytes = text.length === 43 ? fromBase64url(text) : null;
    if (bytes === null || bytes.length !== SIZE || bytes[0] !== VERSION) return { ok: false, reason: 'malformed' };
    if (!timingSafeEqual(this.mac(bytes.subarray(0, PAYLOAD)), bytes.subarray(PAYLOAD)))
      return { ok: false, reason: 'forged' };
    const at = readUint(bytes, 7, 5) * 1000;
    if (this.retentionDays > 0 && now - at > this.retentionDays * 86_400_000) return { ok: false, reason: 'expired' };
    const rule = bytes[12] === NONE ? null : bytes[12]!;
    const variant = bytes[13] === NONE ? null : bytes[13]!;
    return { ok: true, click: { linkId: readUint(bytes, 1, 6), at, rule, variant, key: toBase64url(bytes) } };
  }

  private mac(payload: Uint8Array): Uint8Array {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, MAC);
  }
}

function small(n: number | null): number {
  return n === null || n < 0 || n >= NONE ? NONE : n;
}

function writeUint(bytes: Uint8Array, at: number, size: number, n: number): void {
  for (let i = size - 1; i >= 0; i--) {
    bytes[at + i] = n % 256;
    n = Math.floor(n / 256);
  }
}

function readUint(bytes: Uint8Array, at: number, size: number): number {
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + bytes[at + i]!;
  return n;
}
