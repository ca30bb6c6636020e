import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { fromBase64url, toBase64url } from './base64url.ts';
import { ClickIds } from './click-id.ts';

// base64url.ts is Buffer's base64url behind a strictness check; the hand-written codec it replaced
// is kept here, as the reference its answers are held to: the same text for the same bytes, the
// same bytes for the same text, and the same refusals (padding, "+" and "/", any other character).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Map([...ALPHABET].map((c, i) => [c, i]));

function referenceEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

function referenceDecode(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (const c of text) {
    const v = VALUES.get(c);
    if (v === undefined) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

const decoded = (read: Uint8Array | null) => (read === null ? null : [...read]);

function assertSameDecoding(text: string): void {
  assert.deepEqual(decoded(fromBase64url(text)), decoded(referenceDecode(text)), JSON.stringify(text));
}

test('the table of texts decodes as the hand-written decoder decoded it, refusals included', () => {
  const table = [
    ...['', 'A', 'AA', 'AAA', 'AAAA', 'AAAAA', 'AQ', 'AR', 'AS', 'AT', '_w', '__8', '-_-_', 'QUJD', 'QUJDRA'],
    // What Buffer alone would take: padding, base64's "+" and "/", and a text cut at its first stranger.
    ...['AQ==', 'AQ=', 'QUJD=', '+/+/', 'ab+c', 'ab/c', 'AB CD', 'ABCD.', 'AB\nCD', 'ABC%', 'ABCé', '=', '===='],
    ...['AAAA\u0000', 'AAA\u00a0', ' AAAA', 'AAAA ', 'ＡＡＡＡ'],
  ];
  for (const text of table) assertSameDecoding(text);
});

test('a seeded sweep of bytes encodes the same, and of texts decodes the same', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const text = toBase64url(bytes);
      assert.equal(text, referenceEncode(bytes));
      assert.deepEqual(decoded(fromBase64url(text)), [...bytes]);
    }),
    { seed: 20_260_603, numRuns: 3_000 },
  );
  const unit = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...ALPHABET) },
    { weight: 1, arbitrary: fc.constantFrom('=', '+', '/', ' ', '.', '%', 'é', '\n') },
  );
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 48 }), (text) => assertSameDecoding(text)),
    { seed: 20_260_604, numRuns: 3_000 },
  );
});

// Issued with the hand-written codec (secret 'golden-secret-for-tests', retention 0), before the swap.
const ISSUED = [
  { id: 'AQAAAAAAAQBlU_EA__9MKmhO2GAfEih0gYstcuA1TLE', linkId: 1, at: 1_700_000_000_000, rule: null, variant: null },
  {
    id: 'Af_______wBpVbj_AP7vl8tnuG8MJ586K4qOChXoF9g',
    linkId: 281_474_976_710_655,
    at: 1_767_225_599_000,
    rule: 0,
    variant: 254,
  },
  { id: 'AQAAAAAQkgBoYyUAAwGfluX4IYzvGfPpKQQoaoyXTD4', linkId: 4242, at: 1_751_328_000_000, rule: 3, variant: 1 },
  { id: 'AQAAAAAATQBmhR57_gAS8NGSqvit1QJ1mGcUT-rHY1g', linkId: 77, at: 1_720_000_123_000, rule: 254, variant: 0 },
];
const goldenIds = new ClickIds('golden-secret-for-tests', 0);

test('click ids issued before the swap read as they did, keyed the same', () => {
  for (const { id, ...facts } of ISSUED) {
    assert.deepEqual(goldenIds.read(id, facts.at), { ok: true, click: { ...facts, key: id } }, id);
  }
});

test('a click id spelled another way is the same click when its bytes are, and refused when it is not base64url', () => {
  const { id, ...facts } = ISSUED[1]!;
  // The last character's two low bits carry nothing: "g" and "h" spell the same 32 bytes.
  const respelled = `${id.slice(0, -1)}h`;
  assert.deepEqual(decoded(referenceDecode(respelled)), decoded(referenceDecode(id)));
  assert.deepEqual(goldenIds.read(respelled, facts.at), { ok: true, click: { ...facts, key: id } });
  // Buffer reads "/" as "_" and stops at "=": without the check these would pass as the same click.
  for (const garbled of [id.replaceAll('_', '/'), `${id.slice(0, -1)}=`, `${id.slice(0, 42)}.`]) {
    assert.deepEqual(goldenIds.read(garbled, facts.at), { ok: false, reason: 'malformed' }, garbled);
  }
});

test('click ids issued now read back with the hand-written decoder, byte for byte', () => {
  const ids = new ClickIds('secret', 0);
  for (let linkId = 1; linkId < 200; linkId += 7) {
    const id = ids.issue({ linkId, at: 1_780_000_000_000 + linkId, rule: linkId % 5, variant: null });
    assert.equal(referenceEncode(referenceDecode(id)!), id);
    assert.deepEqual(decoded(fromBase64url(id)), decoded(referenceDecode(id)));
  }
});

test('tokens of the signed cookies (HMAC-SHA256 in base64url) decode and re-encode the same', () => {
  // The unlock, CSRF and workspace cookies are Node's digest('base64url'), compared as text: this
  // codec never reads them, but reads them as the hand-written one did.
  for (let i = 0; i < 50; i++) {
    const token = createHmac('sha256', 'cookie-secret').update(`unlock:${i}:hash`).digest('base64url');
    assertSameDecoding(token);
    assert.equal(toBase64url(fromBase64url(token)!), token);
  }
});
