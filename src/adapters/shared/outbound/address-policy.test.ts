import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardedLookup, isPublicAddress } from './address-policy.ts';
import { fakeLookup } from '../../../../test/support/fake-lookup.ts';

const nonPublic = [
  // IPv4 special ranges named in the policy
  '0.0.0.0',
  '0.255.255.255',
  '10.0.0.1',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.255.255',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf:ffff::1',
  'ff02::1',
  '100::1',
  '2001:db8::1',
  '2001::1', // Teredo
  '3fff::1',
  '::127.0.0.1', // deprecated IPv4-compatible form
  // IPv4 smuggled inside IPv6
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::FFFF:10.0.0.1',
  '::ffff:169.254.169.254',
  '0:0:0:0:0:ffff:c0a8:101',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a00:1',
  '2002:7f00:1::1', // 6to4 around 127.0.0.1
  '2002:c0a8:101::', // 6to4 around 192.168.1.1
  '::ffff:0:127.0.0.1', // RFC 6145 translated form
  '64:ff9b:1::8.8.8.8', // local-use NAT64 (RFC 8215): the gateway's own network
  '2001:20::1', // ORCHIDv2
  'fec0::1', // deprecated site-local
  '::ffff:100.64.0.1', // CGNAT behind the mapped form
  '::ffff:224.0.0.1', // multicast behind the mapped form
  // not IP literals at all
  '',
  'localhost',
  'example.com',
  '[::1]',
  '127.1',
  '1.2.3.4.5',
];

const publicAddresses = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
];

for (const ip of nonPublic) {
  test(`${JSON.stringify(ip)} is not public`, () => {
    assert.equal(isPublicAddress(ip), false);
  });
}

for (const ip of publicAddresses) {
  test(`${ip} is public`, () => {
    assert.equal(isPublicAddress(ip), true);
  });
}

test('guardedLookup filters answers in both calling styles', async () => {
  const lookup = guardedLookup(
    (ip) => ip !== '10.0.0.1',
    fakeLookup({ 'mixed.test': ['10.0.0.1', '192.0.2.1', '2001:db8::1'], 'bad.test': ['10.0.0.1'] }),
  );
  const call = (host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: number | undefined }>((resolve) =>
      lookup(host, { all }, (error, address, family) => resolve({ error, address, family })),
    );

  assert.deepEqual(await call('mixed.test', true), {
    error: null,
    address: [
      { address: '192.0.2.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ],
    family: undefined,
  });
  assert.deepEqual(await call('mixed.test', false), { error: null, address: '192.0.2.1', family: 4 });

  const refused = await call('bad.test', false);
  assert.equal(refused.error?.code, 'EADDRBLOCKED');
  const missing = await call('nowhere.test', true);
  assert.equal(missing.error?.code, 'ENOTFOUND');
});
