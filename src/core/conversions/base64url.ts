// Node's Buffer reads base64url leniently (padding, "+" and "/", and it stops at the first other
// character): a click id is refused unless it is unpadded base64url through and through.
const UNPADDED = /^[A-Za-z0-9_-]*$/;

/** Bytes as base64url without padding. */
export function toBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** The bytes of unpadded base64url text, or null when it is not (a length of 4n+1 never is). */
export function fromBase64url(text: string): Uint8Array | null {
  if (text.length % 4 === 1 || !UNPADDED.test(text)) return null;
  return Buffer.from(text, 'base64url');
}
