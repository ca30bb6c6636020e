import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tlsNameOf } from './tls-name.ts';

test('a TLS name is lower-cased, loses one trailing dot and is written in punycode', () => {
  assert.deepEqual(tlsNameOf('Go.Example.COM'), { host: 'go.example.com', name: 'go.example.com' });
  assert.deepEqual(tlsNameOf('go.example.com.'), { host: 'go.example.com', name: 'go.example.com' });
  assert.deepEqual(tlsNameOf('Bücher.Example'), { host: 'xn--bcher-kva.example', name: 'xn--bcher-kva.example' });
  assert.deepEqual(tlsNameOf('xn--bcher-kva.example'), {
    host: 'xn--bcher-kva.example',
    name: 'xn--bcher-kva.example',
  });
});

test("what is no domain name is refused; a single label is kept as a host (the app's may be one)", () => {
  for (const bad of ['', 'a b.example', 'a/b.example', 'x'.repeat(2000)]) assert.equal(tlsNameOf(bad), null, bad);
  assert.deepEqual(tlsNameOf('localhost'), { host: 'localhost', name: null });
  assert.equal(tlsNameOf('127.0.0.1')?.name, null);
  assert.equal(tlsNameOf('a..b.example')?.name ?? null, null);
  assert.equal(tlsNameOf('go.example.com..')?.name ?? null, null);
  assert.equal(tlsNameOf('under_score.example')?.name ?? null, null);
});
