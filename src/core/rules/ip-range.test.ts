import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRange, inRange, parseAddress, parseRange } from './ip-range.ts';

const within = (address: string, range: string) => inRange(parseAddress(address)!, parseRange(range)!);

test('IPv4 ranges hold from their first address to their last, and not a step outside', () => {
  assert.equal(within('10.0.0.0', '10.0.0.0/8'), true);
  assert.equal(within('10.255.255.255', '10.0.0.0/8'), true);
  assert.equal(within('11.0.0.0', '10.0.0.0/8'), false);
  assert.equal(within('9.255.255.255', '10.0.0.0/8'), false);
  assert.equal(within('192.168.1.130', '192.168.1.128/25'), true);
  assert.equal(within('192.168.1.127', '192.168.1.128/25'), false);
  assert.equal(within('1.2.3.4', '0.0.0.0/0'), true);
  assert.equal(within('1.2.3.4', '1.2.3.4'), true, 'a single address is a /32');
  assert.equal(within('1.2.3.5', '1.2.3.4'), false);
});

test('IPv6 ranges, compressed or not, with the v4-mapped form read as IPv4', () => {
  assert.equal(within('2001:db8::1', '2001:db8::/32'), true);
  assert.equal(within('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8::/32'), true);
  assert.equal(within('2001:db9::', '2001:db8::/32'), false);
  assert.equal(within('2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1/128'), true);
  assert.equal(within('fe80::1%eth0', 'fe80::/10'), true, 'a zone id is not part of the address');
  assert.equal(within('::ffff:10.1.2.3', '10.0.0.0/8'), true, 'v4-mapped (a dual-stack socket) matches IPv4 ranges');
  assert.equal(within('10.1.2.3', '::ffff:10.0.0.0/104'), true);
  assert.equal(within('10.1.2.3', '2001:db8::/32'), false, 'families never match each other');
  assert.equal(within('2001:db8::1', '0.0.0.0/0'), false);
  assert.equal(within('::1', '::1'), true);
  assert.equal(within('::', '::/0'), true);
});

test('malformed addresses and ranges are refused', () => {
  for (const bad of [
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.00',
    '1..2.3',
    '.1.2.3',
    '1.2.3.',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '１.2.3.4',
    '256.1.1.1',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/a',
    '2001:db8::/129',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    'g::1',
    '',
    'localhost',
  ])
    assert.equal(parseRange(bad), null, bad);
  assert.notEqual(parseRange('1:2:3:4:5:6:7:8'), null);
  assert.notEqual(parseRange('::ffff:1.2.3.4'), null);
  assert.deepEqual(parseRange('0.0.0.0')!.ip.toByteArray(), [0, 0, 0, 0]);
  assert.deepEqual(parseRange('255.255.255.255')!.ip.toByteArray(), [255, 255, 255, 255]);
  assert.deepEqual(parseRange('100.20.3.0')!.ip.toByteArray(), [100, 20, 3, 0]);
});

test('a range is written one way, its host bits cleared', () => {
  assert.equal(formatRange(parseRange('10.1.2.3/8')!), '10.0.0.0/8');
  assert.equal(formatRange(parseRange('1.2.3.4')!), '1.2.3.4/32');
  assert.equal(formatRange(parseRange('2001:0db8:0:0:0:0:0:1/32')!), '2001:db8::/32');
  assert.equal(formatRange(parseRange('2001:db8::1')!), '2001:db8::1/128');
  assert.equal(formatRange(parseRange('::/0')!), '::/0');
});
