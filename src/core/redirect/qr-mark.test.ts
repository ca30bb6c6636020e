import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasQrMark, withQrMark, withoutQrMark } from './qr-mark.ts';

test('only the exact qr=1 pair is the mark, taken out with the other pairs kept as written', () => {
  assert.equal(hasQrMark('qr=1'), true);
  assert.equal(hasQrMark('a=%20b&qr=1&c'), true);
  assert.equal(hasQrMark('qr=10'), false);
  assert.equal(hasQrMark('xqr=1'), false);
  assert.equal(hasQrMark('qr=0'), false);
  assert.equal(withoutQrMark('a=%20b&qr=1&c'), 'a=%20b&c');
  assert.equal(withoutQrMark('qr=1'), '');
  assert.equal(withoutQrMark('qr=1&qr=1&x=1'), 'x=1');
});

test('a QR code encodes the short URL with the mark', () => {
  assert.equal(withQrMark('https://s.example/abc'), 'https://s.example/abc?qr=1');
  assert.equal(withQrMark('https://s.example/abc?x=1'), 'https://s.example/abc?x=1&qr=1');
});
