import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClickIds } from './click-id.ts';

const now = Date.parse('2026-11-27T10:00:00Z');
const ids = new ClickIds('secret', 90);

test('a click id carries its link, second, rule and variant, signed', () => {
  const id = ids.issue({ linkId: 123_456_789, at: now + 999, rule: 3, variant: 1 });
  assert.match(id, /^[A-Za-z0-9_-]{43}$/);
  const read = ids.read(id, now + 5000);
  assert.deepEqual(read, { ok: true, click: { linkId: 123_456_789, at: now, rule: 3, variant: 1, key: id } });
});

test('no rule and no variant read back as null; two clicks never share an id', () => {
  const a = ids.issue({ linkId: 1, at: now, rule: null, variant: null });
  const b = ids.issue({ linkId: 1, at: now, rule: null, variant: null });
  assert.notEqual(a, b);
  const read = ids.read(a, now);
  assert.ok(read.ok && read.click.rule === null && read.click.variant === null);
});

test('a changed byte, another secret, or a garbled text is refused', () => {
  const id = ids.issue({ linkId: 7, at: now, rule: 0, variant: 0 });
  const flipped = id.slice(0, 5) + (id[5] === 'A' ? 'B' : 'A') + id.slice(6);
  assert.deepEqual(ids.read(flipped, now), { ok: false, reason: 'forged' });
  assert.deepEqual(new ClickIds('other', 90).read(id, now), { ok: false, reason: 'forged' });
  assert.deepEqual(ids.read('not a click id', now), { ok: false, reason: 'malformed' });
  assert.deepEqual(ids.read(`${id}A`, now), { ok: false, reason: 'malformed' });
  assert.deepEqual(ids.read('', now), { ok: false, reason: 'malformed' });
});

test('valid for the retention days, then expired; 0 keeps them valid', () => {
  const id = ids.issue({ linkId: 7, at: now, rule: null, variant: null });
  assert.equal(ids.read(id, now + 90 * 86_400_000).ok, true);
  assert.deepEqual(ids.read(id, now + 90 * 86_400_000 + 1000), { ok: false, reason: 'expired' });
  const forever = new ClickIds('secret', 0);
  assert.equal(
    forever.read(forever.issue({ linkId: 7, at: now, rule: null, variant: null }), now + 10_000 * 86_400_000).ok,
    true,
  );
});
