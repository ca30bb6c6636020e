import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldErrorBag } from '../shared/errors.ts';
import { cardImagePath, checkSocialCard, isCardImageUrl, uploadedCardImage } from './social-card.ts';

test("an uploaded image's address is told by its path, on any host; another URL is no upload", () => {
  const path = cardImagePath(42, '0123456789abcdef');
  assert.equal(path, '/public/cards/42/0123456789abcdef.png');
  assert.deepEqual(uploadedCardImage(`https://app.example${path}`), { linkId: 42, hash: '0123456789abcdef' });
  assert.deepEqual(uploadedCardImage(`http://short.test${path}`), { linkId: 42, hash: '0123456789abcdef' });
  for (const other of [
    null,
    'https://cdn.example/og.png',
    `https://app.example${path}?x=1`,
    'https://app.example/public/cards/0/0123456789abcdef.png',
    'https://app.example/public/cards/42/0123456789ABCDEF.png',
    `ftp://app.example${path}`,
  ])
    assert.equal(uploadedCardImage(other), null, String(other));
});

test('a card names an https image, or the http address of an upload (a development APP_URL)', () => {
  assert.ok(isCardImageUrl('https://cdn.example/og.png'));
  assert.ok(isCardImageUrl(`http://short.test${cardImagePath(7, 'ffffffffffffffff')}`));
  assert.ok(!isCardImageUrl('http://cdn.example/og.png'));
  const bag = new FieldErrorBag();
  assert.equal(checkSocialCard(bag, { image: 'http://cdn.example/a.png' }), undefined);
  assert.ok(bag.has('social_card.image'));
});
