import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CountryLookup } from './country-lookup.ts';

const countries = CountryLookup.open();

test('the bundled database is the dual-stack DB-IP one', () => {
  assert.match(countries.info.path, /dbip-country\.mmdb$/);
  assert.equal(countries.info.ipv6, true);
  assert.ok(countries.info.builtAt instanceof Date);
});

test('public IPv4 addresses', () => {
  assert.equal(countries.country('8.8.8.8'), 'US');
  assert.equal(countries.country('81.2.69.160'), 'GB');
});

test('IPv4-mapped IPv6 addresses are looked up as IPv4', () => {
  assert.equal(countries.country('::ffff:8.8.8.8'), 'US');
  assert.equal(countries.country('::FFFF:81.2.69.160'), 'GB');
  assert.equal(countries.country('::ffff:0808:0808'), 'US');
  assert.equal(countries.country('0:0:0:0:0:ffff:8.8.8.8'), 'US');
  assert.equal(countries.country('::ffff:127.0.0.1'), null);
});

test('public IPv6 addresses', () => {
  // Which country DB-IP gives Google's resolver changes between releases (it said CA in
  // 2026-06): only assert that IPv6 is answered at all.
  assert.match(countries.country('2001:4860:4860::8888') ?? '', /^[A-Z]{2}$/);
});

test('private, reserved and unknown addresses have no country', () => {
  for (const ip of [
    '127.0.0.1',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
  ]) {
    assert.equal(countries.country(ip), null, ip);
  }
});

test('malformed input gives null and never throws', () => {
  for (const ip of [
    'not-an-ip',
    '',
    ' ',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    ' 8.8.8.8',
    '8.8.8.8 ',
    '1::2::3',
    'gggg::1',
    '::ffff:',
    '::ffff:1.2.3',
    'x'.repeat(10_000),
  ]) {
    assert.equal(countries.country(ip), null, JSON.stringify(ip.slice(0, 20)));
  }
  assert.equal(countries.country(undefined as unknown as string), null);
});

test('an IPv4-only database does not answer IPv6 queries', () => {
  const v4 = CountryLookup.open(countries.info.path.replace(/dbip-country\.mmdb$/, 'dbip-country-ipv4.mmdb'));
  assert.equal(v4.info.ipv6, false);
  assert.equal(v4.country('8.8.8.8'), 'US');
  assert.equal(v4.country('::ffff:8.8.8.8'), 'US');
  assert.equal(v4.country('2001:4860:4860::8888'), null);
});

test('a database that cannot be read fails at start-up, naming the path', () => {
  assert.throws(() => CountryLookup.open('/nonexistent/geo.mmdb'), /\/nonexistent\/geo\.mmdb/);
  assert.throws(() => CountryLookup.open(new URL(import.meta.url).pathname), /cannot open the IP country database/);
});
