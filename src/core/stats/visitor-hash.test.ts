import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VisitorHasher } from './visitor-hash.ts';
import { ClickStamper } from './click-stamp.ts';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';

test('the same visitor, link and day hash alike on every instance; anything else changes it', () => {
  const a = new VisitorHasher('secret');
  const b = new VisitorHasher('secret');
  const h = a.hash(7, '2026-03-10', '8.8.8.8', UA);
  assert.match(h, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(b.hash(7, '2026-03-10', '8.8.8.8', UA), h);
  const others = [
    a.hash(7, '2026-03-11', '8.8.8.8', UA),
    a.hash(8, '2026-03-10', '8.8.8.8', UA),
    a.hash(7, '2026-03-10', '8.8.4.4', UA),
    a.hash(7, '2026-03-10', '8.8.8.8', `${UA} x`),
    new VisitorHasher('another secret').hash(7, '2026-03-10', '8.8.8.8', UA),
  ];
  assert.equal(new Set([h, ...others]).size, others.length + 1);
  assert.ok(!h.includes('8.8.8.8'));
});

test('the stamp: local day and hour, and no visitor hash for bots', () => {
  const stamper = new ClickStamper('secret');
  const at = Date.parse('2026-03-10T03:30:00Z');
  const human = stamper.stamp({
    linkId: 1,
    at,
    timeZone: 'America/New_York',
    address: '8.8.8.8',
    userAgent: UA,
    isBot: false,
  });
  assert.equal(human.day, '2026-03-09');
  assert.equal(human.hour, 23);
  assert.equal(human.visitor, new VisitorHasher('secret').hash(1, '2026-03-09', '8.8.8.8', UA));
  assert.equal(
    stamper.stamp({ linkId: 1, at, timeZone: 'UTC', address: '8.8.8.8', userAgent: UA, isBot: true }).visitor,
    null,
  );
});
