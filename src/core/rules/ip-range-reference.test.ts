import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatRange, inRange, parseAddress, parseRange, type Address, type IpRange } from './ip-range.ts';

// ip-range.ts reads addresses with ipaddr.js; the hand-written reader it replaced is kept here, as
// the reference its answers are held to: every address and range reads the same, formats the
// same and matches the same, so rules already stored keep their meaning.

interface ReferenceRange {
  bytes: Uint8Array;
  bits: number;
}

const V4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX = /^[0-9a-f]{1,4}$/i;

function referenceAddress(text: string): Uint8Array | null {
  const v4 = referenceDottedQuad(text);
  if (v4 !== null) return v4;
  const bytes = referenceV6(text.replace(/%.*$/, ''));
  if (bytes === null) return null;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

function referenceDottedQuad(text: string): Uint8Array | null {
  if (text.length < 7 || text.length > 15) return null;
  const out = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part > 3) return null;
      out[part++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && value === 0) return null;
      value = value * 10 + (c - 48);
      if (value > 255) return null;
      digits++;
    } else return null;
  }
  return part === 4 ? out : null;
}

function referenceV6(text: string): Uint8Array | null {
  if (!text.includes(':') || text.length > 45) return null;
  let body = text;
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = V4.exec(last);
    if (v4 === null) return null;
    const [a, b, c, d] = v4.slice(1, 5).map(Number) as [number, number, number, number];
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => HEX.test(g))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<string>(missing).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

function referenceRange(text: string): ReferenceRange | null {
  const slash = text.indexOf('/');
  const bytes = referenceAddress(slash === -1 ? text : text.slice(0, slash));
  if (bytes === null) return null;
  const max = bytes.length * 8;
  if (slash === -1) return { bytes, bits: max };
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  const mappedShift = bytes.length === 4 && text.slice(0, slash).includes(':') ? 96 : 0;
  if (bits < mappedShift || bits - mappedShift > max) return null;
  return { bytes, bits: bits - mappedShift };
}

function referenceInRange(address: Uint8Array, range: ReferenceRange): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

function referenceFormat(range: ReferenceRange): string {
  const bytes = range.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, range.bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  if (bytes.length === 4) return `${bytes.join('.')}/${range.bits}`;
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${referenceCompress(words)}/${range.bits}`;
}

function referenceCompress(words: string[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best === -1) return words.join(':');
  return `${words.slice(0, best).join(':')}::${words.slice(best + bestLen).join(':')}`;
}

const bytesOf = (read: Address | IpRange | null) => (read === null ? null : read.ip.toByteArray());

/** One text read both ways: the same bytes (or both refused), the same prefix, the same written form. */
function assertSameReading(text: string): void {
  const expected = referenceRange(text);
  const actual = parseRange(text);
  const label = JSON.stringify(text);
  assert.deepEqual(bytesOf(actual), expected === null ? null : [...expected.bytes], label);
  if (expected === null || actual === null) return;
  assert.equal(actual.bits, expected.bits, label);
  assert.equal(formatRange(actual), referenceFormat(expected), label);
  const address = referenceAddress(text);
  assert.deepEqual(bytesOf(parseAddress(text)), address === null ? null : [...address], label);
}

const TABLE = [
  // IPv4: strict dotted quads only (ipaddr.js alone would read octal, hex and short forms).
  ...['0.0.0.0', '10.0.0.1', '255.255.255.255', '100.20.3.0', '1.2.3.4/0', '10.1.2.3/8', '192.168.1.128/25'],
  ...['01.2.3.4', '1.2.3.00', '0x7f.0.0.1', '0177.0.0.1', '10.1', '127.1', '2130706433', '1.2.3', '1.2.3.4.5'],
  ...['256.1.1.1', '1..2.3', '.1.2.3', '1.2.3.', ' 1.2.3.4', '1.2.3.4 ', '１.2.3.4', '1.2.3.4%eth0', ''],
  ...['1.2.3.4/33', '1.2.3.4/', '1.2.3.4/a', '1.2.3.4/008', '1.2.3.4/0008', '1.2.3.4/+8', '1.2.3.4/8/9'],
  // IPv6, compressed or not, upper case, zone ids of any characters.
  ...['::', '::0', '0::', '::/0', '::1', '2001:db8::/32', '2001:0DB8:0:0:0:0:0:1/32', 'A:B::', 'a:b:c:d:e:f:0:1'],
  ...['fe80::1%eth0', 'fe80::1%en-0.x', 'fe80::1%', 'fe80::%x/10', 'fe80::/10%eth0', '00000::1', 'g::1'],
  ...[
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::',
    '::1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8::',
    '2001:db8::/129',
  ],
  // Embedded IPv4: IPv4-mapped reads as IPv4, IPv4-compatible stays IPv6, the tail as strict as IPv4.
  ...['::ffff:10.1.2.3', '::ffff:10.0.0.0/104', '::ffff:10.0.0.0/95', '::ffff:1.2.3.4%eth0', '::ffff:ffff:ffff'],
  ...['::1.2.3.4', '::1.2.3.4/120', '::0:1.2.3.4', '0:0:0:0:0:0:1.2.3.4', '1::1.2.3.4', '1:2:3:4:5:6:1.2.3.4'],
  ...['::ffff:01.2.3.4', '::ffff:0x1.2.3.4', '::ffff:1.2.3', '::ffff:256.1.1.1', ':1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4'],
  ...['0000:0000:0000:0000:0000:ffff:255.255.255.255', '0000:0000:0000:0000:0000:ffff:255.255.255.255/128'],
  'localhost',
];

test('every address and range of the table reads as the hand-written reader read it', () => {
  for (const text of TABLE) assertSameReading(text);
});

const hexGroup = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const octet = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 300 }));
const dotted = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));
const colonHex = fc
  .tuple(
    fc.array(hexGroup, { maxLength: 9 }),
    fc.option(fc.nat(8)),
    fc.boolean(),
    fc.option(dotted),
    fc.option(fc.constantFrom('%eth0', '%1', '%br-lan')),
  )
  .map(([groups, gap, mapped, tail, zone]) => {
    const written = [...groups];
    if (gap !== null) written.splice(Math.min(gap, written.length), 0, '');
    if (mapped && tail !== null) written.push('ffff');
    let text = written.join(':');
    if (gap === 0) text = `:${text}`;
    if (gap !== null && gap >= groups.length) text = `${text}:`;
    return `${text}${tail === null ? '' : `:${tail}`}${zone ?? ''}`;
  });
const prefix = fc.option(fc.integer({ min: 0, max: 140 }).map((n) => `/${n}`));
const written = fc.tuple(fc.oneof(dotted, colonHex), prefix).map(([address, bits]) => `${address}${bits ?? ''}`);
const scrambled = fc.string({
  unit: fc.constantFrom(...'0129afAFg:.%/ x'.split(''), '::', 'ffff', '255'),
  maxLength: 24,
});

test('a seeded sweep of written and scrambled addresses reads the same both ways', () => {
  fc.assert(
    fc.property(fc.oneof(written, scrambled), (text) => assertSameReading(text)),
    {
      seed: 20_260_601,
      numRuns: 4_000,
    },
  );
});

test('a seeded sweep of addresses against ranges matches the same both ways', () => {
  const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
  const pair = fc.oneof(
    fc.tuple(bytes(4), bytes(4), fc.integer({ min: 0, max: 32 })),
    fc.tuple(bytes(16), bytes(16), fc.integer({ min: 0, max: 128 })),
    fc.tuple(bytes(4), bytes(16), fc.integer({ min: 0, max: 128 })),
  );
  const write = (b: Uint8Array) =>
    b.length === 4
      ? b.join('.')
      : Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':');
  fc.assert(
    fc.property(pair, ([address, network, bits]) => {
      // Half the time the address shares the network's first bytes, so that both answers occur.
      const near =
        network.length === address.length ? Uint8Array.from(address, (b, i) => (i < 3 ? network[i]! : b)) : address;
      for (const a of [address, near]) {
        const range = `${write(network)}/${bits}`;
        const expected = referenceRange(range);
        const actual = parseRange(range);
        if (expected === null || actual === null) {
          assert.equal(actual, expected, range);
          continue;
        }
        const label = `${write(a)} in ${range}`;
        assert.equal(
          inRange(parseAddress(write(a))!, actual),
          referenceInRange(referenceAddress(write(a))!, expected),
          label,
        );
      }
    }),
    { seed: 20_260_602, numRuns: 2_000 },
  );
});
