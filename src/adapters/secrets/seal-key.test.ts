import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newSealKeyText, parseSealKeys, sealKeyOf } from './seal-key.ts';
import { openWith, sealedKeyId, sealWith, UnknownSealKeyError } from './secret-box.ts';

test("SEAL_KEY: base64url keys, comma-separated; base64's spelling of the same bytes is the same key; anything else refused", () => {
  const bytes = randomBytes(32);
  const url = bytes.toString('base64url');
  assert.deepEqual(parseSealKeys(''), []);
  assert.deepEqual(parseSealKeys(` ${url} `), [url]);
  assert.deepEqual(parseSealKeys(bytes.toString('base64')), [url], 'openssl rand -base64 32');
  const other = newSealKeyText();
  assert.deepEqual(parseSealKeys(`${url},${other}`), [url, other]);
  for (const bad of [
    'short',
    randomBytes(31).toString('base64url'),
    randomBytes(33).toString('base64url'),
    `${url}!`,
  ]) {
    assert.throws(() => parseSealKeys(bad), /must be keys of 32 random bytes/, bad);
  }
  assert.throws(() => parseSealKeys(`${url},${bytes.toString('base64')}`), /names one key twice/);
});

test('a key id is a digest: stable, 11 characters, not the key; seals name it and open only under it', () => {
  const [a, b] = [newSealKeyText(), newSealKeyText()];
  assert.equal(sealKeyOf(a).id, sealKeyOf(a).id);
  assert.match(sealKeyOf(a).id, /^[A-Za-z0-9_-]{11}$/);
  assert.notEqual(sealKeyOf(a).id, sealKeyOf(b).id);
  assert.ok(!a.includes(sealKeyOf(a).id));
  const sealed = sealWith(sealKeyOf(a), 'JBSWY3DPEHPK3PXP');
  assert.equal(sealedKeyId(sealed), sealKeyOf(a).id);
  assert.equal(openWith([sealKeyOf(b), sealKeyOf(a)], sealed), 'JBSWY3DPEHPK3PXP');
  assert.throws(() => openWith([sealKeyOf(b)], sealed), UnknownSealKeyError);
  assert.throws(
    () => openWith([{ id: sealKeyOf(a).id, aes: sealKeyOf(b).aes }], sealed),
    'a wrong key under the right id does not open it',
  );
  assert.equal(sealedKeyId('plain text'), null);
});
