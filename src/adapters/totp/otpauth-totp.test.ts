import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OtpauthTotp } from './otpauth-totp.ts';

// RFC 6238, appendix B: the SHA-1 seed "12345678901234567890" in base32; six digits are the last six of the eight.
const SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS = [
  { seconds: 59, code: '287082' },
  { seconds: 1111111109, code: '081804' },
  { seconds: 1111111111, code: '050471' },
  { seconds: 1234567890, code: '005924' },
  { seconds: 2000000000, code: '279037' },
];

const totp = new OtpauthTotp();

test("RFC 6238's vectors: each code belongs to its own 30-second step at a fixed clock", () => {
  for (const { seconds, code } of VECTORS)
    assert.equal(totp.stepOf(SEED, code, seconds * 1000), Math.floor(seconds / 30), `T=${seconds}`);
});

test('a code is good one step either side (clock drift), not two; anything but six digits is no code', () => {
  const { seconds, code } = VECTORS[3]!;
  const step = Math.floor(seconds / 30);
  assert.equal(totp.stepOf(SEED, code, (seconds + 30) * 1000), step);
  assert.equal(totp.stepOf(SEED, code, (seconds - 30) * 1000), step);
  assert.equal(totp.stepOf(SEED, code, (seconds + 60) * 1000), null);
  for (const typed of ['', '00592', '0059240', 'abcdef', ' 005924'])
    assert.equal(totp.stepOf(SEED, typed, seconds * 1000), null, JSON.stringify(typed));
});

test('new secrets are 160-bit base32, and the URI is what authenticator apps read', () => {
  const secret = totp.newSecret();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.notEqual(totp.newSecret(), secret);
  const uri = new URL(totp.uri(secret, 'ada@example.com', 'linkpix'));
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(decodeURIComponent(uri.pathname), '/linkpix:ada@example.com');
  assert.equal(uri.searchParams.get('secret'), secret);
  assert.equal(uri.searchParams.get('issuer'), 'linkpix');
  assert.equal(uri.searchParams.get('digits'), '6');
  assert.equal(uri.searchParams.get('period'), '30');
});
