import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientAddress, hostnameOf, limitAddress, requestHost, trustFunction } from './client-address.ts';

/** The parts of a request the functions read; proxy-addr reads the socket (and older code the connection). */
function req(remoteAddress: string, headers: Record<string, string | string[]> = {}): IncomingMessage {
  return { headers, socket: { remoteAddress }, connection: { remoteAddress } } as unknown as IncomingMessage;
}

const chain = (address: string) =>
  req(address, {
    host: 'origin.internal',
    'x-forwarded-for': '198.51.100.1, 203.0.113.5, 10.1.2.3',
    'x-forwarded-host': 'first.example, Go.Example.com ',
  });

test('false trusts nobody: forwarded headers are ignored', () => {
  const trust = trustFunction(false);
  assert.equal(trust, null);
  const r = chain('127.0.0.1');
  assert.equal(clientAddress(r, trust), '127.0.0.1');
  assert.equal(requestHost(r, trust), 'origin.internal');
});

test('without a trusted proxy and without headers: the socket address and Host', () => {
  const r = req('192.0.2.7', { host: 'sho.rt' });
  assert.equal(clientAddress(r, trustFunction(true)), '192.0.2.7');
  assert.equal(requestHost(r, trustFunction(true)), 'sho.rt');
  assert.equal(requestHost(req('192.0.2.7'), null), '');
});

test('true trusts every hop: the client is the left-most X-Forwarded-For address', () => {
  const trust = trustFunction(true)!;
  assert.equal(trust('8.8.8.8', 5), true);
  const r = chain('127.0.0.1');
  assert.equal(clientAddress(r, trust), '198.51.100.1');
  assert.equal(requestHost(r, trust), 'Go.Example.com');
});

test('a hop count trusts that many proxies nearest the server', () => {
  const one = trustFunction(1)!;
  assert.equal(one('1.2.3.4', 0), true);
  assert.equal(one('1.2.3.4', 1), false);
  assert.equal(clientAddress(chain('127.0.0.1'), one), '10.1.2.3');
  assert.equal(requestHost(chain('127.0.0.1'), one), 'Go.Example.com');
  assert.equal(clientAddress(chain('127.0.0.1'), trustFunction(2)), '203.0.113.5');
  assert.equal(clientAddress(chain('127.0.0.1'), trustFunction(10)), '198.51.100.1');
  // Zero hops: not even the peer is trusted.
  const none = trustFunction(0)!;
  assert.equal(clientAddress(chain('127.0.0.1'), none), '127.0.0.1');
  assert.equal(requestHost(chain('127.0.0.1'), none), 'origin.internal');
});

test('an address list trusts only those addresses and ranges', () => {
  const trust = trustFunction('127.0.0.1, 10.0.0.0/8,')!;
  assert.equal(trust('127.0.0.1', 0), true);
  assert.equal(trust('10.200.0.1', 3), true);
  assert.equal(trust('127.0.0.2', 0), false);
  assert.equal(trust('11.0.0.1', 0), false);
  // Trusted peer, trusted 10.1.2.3, then the first untrusted hop is the client.
  assert.equal(clientAddress(chain('127.0.0.1'), trust), '203.0.113.5');
  assert.equal(requestHost(chain('127.0.0.1'), trust), 'Go.Example.com');
  // An untrusted peer: its headers count for nothing.
  assert.equal(clientAddress(chain('192.0.2.1'), trust), '192.0.2.1');
  assert.equal(requestHost(chain('192.0.2.1'), trust), 'origin.internal');
  // A single entry compiles too.
  assert.equal(clientAddress(chain('10.9.9.9'), trustFunction('10.0.0.0/8')), '203.0.113.5');
});

test('requestHost takes the last X-Forwarded-Host entry, trimmed, also from repeated headers', () => {
  const trust = trustFunction(true);
  assert.equal(
    requestHost(req('127.0.0.1', { host: 'h', 'x-forwarded-host': '  one.example  ' }), trust),
    'one.example',
  );
  assert.equal(
    requestHost(req('127.0.0.1', { host: 'h', 'x-forwarded-host': ['a.example', 'b.example, c.example:8443'] }), trust),
    'c.example:8443',
  );
  assert.equal(requestHost(req('127.0.0.1', { host: 'h', 'x-forwarded-host': '' }), trust), 'h');
});

test('hostnameOf: lower case, no port, no trailing dot, IPv6 brackets kept', () => {
  assert.equal(hostnameOf('Sho.RT'), 'sho.rt');
  assert.equal(hostnameOf('sho.rt:8080'), 'sho.rt');
  assert.equal(hostnameOf('Sho.rt.'), 'sho.rt');
  assert.equal(hostnameOf('sho.rt.:443'), 'sho.rt');
  assert.equal(hostnameOf('[::1]:8080'), '[::1]');
  assert.equal(hostnameOf('[2001:DB8::1]'), '[2001:db8::1]');
  assert.equal(hostnameOf('127.0.0.1:3000'), '127.0.0.1');
  assert.equal(hostnameOf(''), '');
});

test('hostnameOf answers the same when called again, with the same or alternating hosts', () => {
  const inputs = ['A.example:80', 'A.example:80', 'b.example.', 'A.example:80', '[::1]:1', 'b.example.', 'b.example.'];
  const expected = ['a.example', 'a.example', 'b.example', 'a.example', '[::1]', 'b.example', 'b.example'];
  for (let round = 0; round < 3; round++) assert.deepEqual(inputs.map(hostnameOf), expected);
});

test('limits count an IPv6 client by its /64, an IPv4 one (mapped or not) by its address', () => {
  assert.equal(limitAddress('203.0.113.7'), '203.0.113.7');
  assert.equal(limitAddress('::ffff:203.0.113.7'), '203.0.113.7');
  // Every address of one subscriber's block is one budget.
  assert.equal(limitAddress('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  assert.equal(limitAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.notEqual(limitAddress('2001:db8:1:3::1'), limitAddress('2001:db8:1:2::1'));
  assert.equal(limitAddress('::1'), '::/64');
  assert.equal(limitAddress('not an address'), 'not an address');
});
