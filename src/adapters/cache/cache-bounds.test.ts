// Issue 14, finding 9: whatever Host and alias clients send, the redirect cache holds a bounded
// number of entries with keys of bounded size. Hosts that are no custom domain's name are the
// app's host before any key is made; aliases no link can have never become keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type {
  DomainNameSource,
  RedirectDomain,
  RedirectLink,
  RedirectLinkSource,
} from '../../core/redirect/redirect-link.ts';
import { CachedRedirectSource } from './cached-redirect-source.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';

const APP = 'short.test';
// A key is "host alias": a domain name (at most 253 characters) and an alias (at most 255).
const LONGEST_KEY = 253 + 1 + 255;

const link = aRedirectLink;

/** Serves default-domain links on any host that is not a domain's name, as the SQL source does. */
class FakeSource implements RedirectLinkSource, DomainNameSource {
  appLinks = new Map<string, RedirectLink>();
  domainLinks = new Map<string, RedirectLink>();
  names = new Set<string>(['brand.test']);
  finds: string[] = [];
  domainReads: string[] = [];
  nameReads = 0;
  holdNames: Promise<void> | null = null;

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    this.finds.push(`${host} ${alias}`);
    if (this.names.has(host)) return this.domainLinks.get(`${host} ${alias.toLowerCase()}`) ?? null;
    return this.appLinks.get(alias.toLowerCase()) ?? null;
  }

  async domain(host: string): Promise<RedirectDomain | null> {
    this.domainReads.push(host);
    return this.names.has(host)
      ? { id: 1, accountId: 10, indexPage: null, notFoundPage: null, appleAppSiteAssociation: null, assetLinks: null }
      : null;
  }

  async domainNames(): Promise<string[]> {
    this.nameReads++;
    const names = [...this.names];
    if (this.holdNames) await this.holdNames;
    return names;
  }
}

function setup(options: { maxEntries?: number; maxMisses?: number } = {}) {
  let t = 1_700_000_000_000;
  const inner = new FakeSource();
  const cache = new CachedRedirectSource(inner, {
    ttlMs: 60_000,
    missTtlMs: 2_000,
    maxEntries: options.maxEntries ?? 1000,
    appHost: APP,
    now: () => t,
    ...(options.maxMisses === undefined ? {} : { maxMisses: options.maxMisses }),
  });
  return { inner, cache, advance: (ms: number) => void (t += ms) };
}

/** Host values as a flood sends them: long, distinct, some not even host names. */
function floodHost(i: number): string {
  const body = randomBytes(16).toString('hex');
  if (i % 3 === 0) return `${body}.${'x'.repeat(10_000)}.test`;
  if (i % 3 === 1) return `[${body}]`;
  return `${body}.example`;
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

test('20 000 distinct Hosts asking for one app link: one read, one entry, short keys', async () => {
  const { inner, cache } = setup();
  inner.appLinks.set('hello', link());
  for (let i = 0; i < 20_000; i++) {
    const host = floodHost(i);
    const found = cache.peek(host, 'hello') ?? (await cache.find(host, 'hello'));
    assert.equal(found?.id, 1);
    assert.equal(await cache.domain(host), null);
  }
  assert.deepEqual(inner.finds, [`${APP} hello`]);
  assert.deepEqual(inner.domainReads, [], 'a host that is no domain name is never looked up');
  const sizes = cache.sizes;
  assert.deepEqual(
    { links: sizes.links, misses: sizes.misses, domains: sizes.domains },
    { links: 1, misses: 0, domains: 0 },
  );
  assert.equal(sizes.longestKey, `${APP} hello`.length);
});

test('distinct unknown aliases through distinct Hosts: misses capped apart, cached links kept', async () => {
  const { inner, cache } = setup({ maxEntries: 1000, maxMisses: 500 });
  inner.appLinks.set('hello', link());
  await cache.find('anything.example', 'hello');
  for (let i = 0; i < 20_000; i++) {
    const alias = `${randomBytes(8).toString('hex')}${'a'.repeat(200 + (i % 56))}`; // up to 255, a valid alias
    assert.equal(await cache.find(floodHost(i), alias), null);
  }
  const sizes = cache.sizes;
  assert.equal(sizes.links, 1);
  assert.ok(sizes.misses <= 500, `misses ${sizes.misses}`);
  assert.ok(sizes.longestKey <= APP.length + 1 + 255, `longest key ${sizes.longestKey}`);
  assert.ok(sizes.longestKey <= LONGEST_KEY);
  assert.equal(cache.peek('yet-another.example', 'hello')?.id, 1, 'the flood did not push the link out');
});

test('an alias no link can have (too long, or not an alias) is unknown without a read or an entry', async () => {
  const { inner, cache } = setup();
  await cache.ready();
  for (const alias of ['a'.repeat(256), 'a'.repeat(100_000), 'a b', 'ü', 'a/b', '']) {
    assert.equal(await cache.find(APP, alias), null);
    assert.equal(cache.peek(APP, alias), undefined);
  }
  assert.deepEqual(inner.finds, []);
  assert.deepEqual(cache.sizes, { links: 0, misses: 0, domains: 0, domainNames: 1, longestKey: 0 });
  inner.appLinks.set('a'.repeat(255), link({ alias: 'a'.repeat(255) }));
  assert.equal((await cache.find(APP, 'A'.repeat(255)))?.id, 1, 'the longest alias still works');
});

test("a custom domain's host keeps its own entries; the app's links are not served under it by the cache", async () => {
  const { inner, cache } = setup();
  inner.appLinks.set('hello', link({ id: 1 }));
  inner.domainLinks.set('brand.test hello', link({ id: 2, domainId: 1 }));
  assert.equal((await cache.find('brand.test', 'hello'))?.id, 2);
  assert.equal((await cache.find('other.example', 'hello'))?.id, 1);
  assert.equal(cache.peek('brand.test', 'hello')?.id, 2);
  assert.equal(cache.peek(APP, 'hello')?.id, 1);
  assert.ok(await cache.domain('brand.test'));
  assert.deepEqual(inner.domainReads, ['brand.test']);
});

test("a domain added or deleted changes which hosts are the app's once the names are loaded again", async () => {
  const { inner, cache } = setup();
  inner.appLinks.set('hello', link({ id: 1 }));
  inner.domainLinks.set('new.test hello', link({ id: 3, domainId: 2 }));
  assert.equal((await cache.find('new.test', 'hello'))?.id, 1, "not a domain yet: the app's link");
  inner.names.add('new.test');
  cache.accountChanged(10);
  await settle();
  assert.equal(inner.nameReads, 2);
  assert.equal((await cache.find('new.test', 'hello'))?.id, 3);
  inner.names.delete('new.test');
  cache.accountChanged(10);
  await settle();
  assert.equal((await cache.find('new.test', 'hello'))?.id, 1);
});

test('the names load once before first use, again when older than 30 s, and again after a change seen mid-load', async () => {
  const { inner, cache, advance } = setup();
  assert.equal(cache.peek(APP, 'hello'), undefined, 'nothing is served before the names are known');
  await Promise.all([cache.ready(), cache.find(APP, 'x'), cache.domain('brand.test')]);
  assert.equal(inner.nameReads, 1);
  advance(29_000);
  await cache.find(APP, 'y');
  assert.equal(inner.nameReads, 1);
  advance(1_000);
  await cache.find(APP, 'z');
  await settle();
  assert.equal(inner.nameReads, 2, 'a stale list is read again in the background');

  let release!: () => void;
  inner.holdNames = new Promise((r) => (release = r));
  cache.accountChanged(10); // a load begins and waits
  inner.names.add('late.test'); // the change it may not have seen
  cache.accountChanged(10);
  inner.holdNames = null;
  release();
  await settle();
  await settle();
  assert.equal(inner.nameReads, 4);
  assert.equal(cache.sizes.domainNames, 2);
});

test('while a change is loaded, a host not yet in the list is not served from the cache: find waits for the list', async () => {
  const { inner, cache } = setup();
  inner.appLinks.set('hello', link({ id: 1, accountId: 20 }));
  inner.domainLinks.set('new.test hello', link({ id: 3, domainId: 2 }));
  await cache.find('new.test', 'hello'); // the app's link, cached under the app's host
  assert.equal(cache.peek('new.test', 'hello')?.id, 1);
  inner.names.add('new.test');
  cache.accountChanged(10);
  assert.equal(cache.peek('new.test', 'hello'), undefined);
  assert.equal(cache.peek('brand.test', 'hello'), undefined, 'not cached, but known to be a domain');
  assert.equal((await cache.find('new.test', 'hello'))?.id, 3);
  assert.equal(cache.peek('new.test', 'hello')?.id, 3);
  assert.equal(cache.peek('other.example', 'hello')?.id, 1, "another account's link stays cached");
});

test("domains' answers are capped apart from links, and only a domain's name is ever a domain key", async () => {
  const t = 1_700_000_000_000;
  const inner = new FakeSource();
  for (let i = 0; i < 50; i++) inner.names.add(`d${i}.test`);
  const cache = new CachedRedirectSource(inner, {
    ttlMs: 60_000,
    missTtlMs: 2_000,
    maxEntries: 1000,
    maxDomains: 10,
    appHost: APP,
    now: () => t,
  });
  for (let i = 0; i < 50; i++) assert.ok(await cache.domain(`d${i}.test`));
  for (let i = 0; i < 1000; i++) assert.equal(await cache.domain(floodHost(i)), null);
  assert.equal(cache.sizes.domains, 10);
  assert.equal(inner.domainReads.length, 50);
});

test('while the names cannot be read, the old list serves, and is tried again once per refresh, not per visit', async () => {
  const { inner, cache, advance } = setup();
  inner.appLinks.set('hello', link());
  await cache.find('brand.test', 'x');
  const read = inner.domainNames.bind(inner);
  inner.domainNames = async () => {
    inner.nameReads++;
    throw new Error('database away');
  };
  cache.accountChanged(20);
  await settle();
  assert.equal(inner.nameReads, 2);
  assert.equal((await cache.find('other.example', 'hello'))?.id, 1);
  assert.equal(cache.peek('other.example', 'hello')?.id, 1, 'the fast path keeps serving with the old list');
  for (let i = 0; i < 10; i++) await cache.find('other.example', `a${i}`);
  await settle();
  assert.equal(inner.nameReads, 2);
  advance(30_000);
  await cache.find('other.example', 'b');
  await settle();
  assert.equal(inner.nameReads, 3);
  inner.domainNames = read;
});
