import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  DomainNameSource,
  RedirectDomain,
  RedirectLink,
  RedirectLinkSource,
} from '../../core/redirect/redirect-link.ts';
import { CachedRedirectSource } from './cached-redirect-source.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';

const TTL = 1000;
const MISS_TTL = 100;

const link = (over: Partial<RedirectLink> = {}): RedirectLink => aRedirectLink({ alias: 'abc', ...over });

const domainOf = (id: number, accountId: number): RedirectDomain => ({
  id,
  accountId,
  indexPage: null,
  notFoundPage: null,
  appleAppSiteAssociation: null,
  assetLinks: null,
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Answers from `links` (keyed "host alias", alias lower case) and `domains`; counts reads; `hold` makes the next find wait. */
class FakeSource implements RedirectLinkSource, DomainNameSource {
  links = new Map<string, RedirectLink>();
  domains = new Map<string, RedirectDomain>();
  /** The custom domains' names; every other host is the app's (short.test). */
  names = new Set(['a.test', 'b.test', 'c.test', 'h']);
  nameReads = 0;
  finds: string[] = [];
  domainReads: string[] = [];
  hold: ReturnType<typeof deferred<void>> | null = null;

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    this.finds.push(`${host} ${alias}`);
    const answer = this.links.get(`${host} ${alias.toLowerCase()}`) ?? null;
    if (this.hold) await this.hold.promise;
    return answer;
  }

  async domain(host: string): Promise<RedirectDomain | null> {
    this.domainReads.push(host);
    return this.domains.get(host) ?? null;
  }

  async domainNames(): Promise<string[]> {
    this.nameReads++;
    return [...this.names];
  }
}

function setup(options: { maxEntries?: number; maxMisses?: number; maxDomains?: number } = {}) {
  let t = 1_700_000_000_000;
  const inner = new FakeSource();
  const cache = new CachedRedirectSource(inner, {
    ttlMs: TTL,
    missTtlMs: MISS_TTL,
    maxEntries: options.maxEntries ?? 100,
    appHost: 'short.test',
    now: () => t,
    ...(options.maxMisses === undefined ? {} : { maxMisses: options.maxMisses }),
    ...(options.maxDomains === undefined ? {} : { maxDomains: options.maxDomains }),
  });
  return { inner, cache, advance: (ms: number) => void (t += ms) };
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

test('find reads the inner source once, then serves from cache; aliases ignore case; keys are per host', async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link());
  inner.links.set('b.test abc', link({ id: 2 }));
  assert.equal((await cache.find('a.test', 'abc'))?.id, 1);
  assert.equal((await cache.find('a.test', 'ABC'))?.id, 1);
  assert.equal((await cache.find('a.test', 'aBc'))?.id, 1);
  assert.deepEqual(inner.finds, ['a.test abc']);
  assert.equal((await cache.find('b.test', 'abc'))?.id, 2);
  assert.deepEqual(inner.finds, ['a.test abc', 'b.test abc']);
});

test('peek: undefined when not cached, the link when cached, null for a cached miss', async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link());
  assert.equal(cache.peek('a.test', 'abc'), undefined);
  await cache.find('a.test', 'abc');
  assert.equal(cache.peek('a.test', 'ABC')?.id, 1);
  assert.equal(await cache.find('a.test', 'nope'), null);
  assert.equal(cache.peek('a.test', 'nope'), null);
  assert.equal(inner.finds.length, 2);
});

test('find reads again once the TTL has passed (and a miss after the miss TTL)', async () => {
  const { inner, cache, advance } = setup();
  inner.links.set('a.test abc', link());
  await cache.find('a.test', 'abc');
  await cache.find('a.test', 'missing');
  // An entry lives between half its TTL and its TTL (random, so entries read together spread).
  advance(MISS_TTL * 0.49);
  await cache.find('a.test', 'missing');
  assert.equal(inner.finds.length, 2);
  advance(MISS_TTL * 0.6);
  await cache.find('a.test', 'missing');
  await cache.find('a.test', 'abc');
  assert.equal(inner.finds.length, 3, 'the link is still fresh, the miss is not');
  advance(TTL);
  inner.links.set('a.test abc', link({ url: 'https://new.example/' }));
  assert.equal((await cache.find('a.test', 'abc'))?.url, 'https://new.example/');
  assert.equal(inner.finds.length, 4);
});

test('peek serves a just-expired link while one background refresh reads it again', async () => {
  const { inner, cache, advance } = setup();
  inner.links.set('a.test abc', link());
  await cache.find('a.test', 'abc');
  advance(TTL + 1);
  inner.links.set('a.test abc', link({ url: 'https://new.example/' }));
  inner.hold = deferred<void>();
  for (let i = 0; i < 5; i++) assert.equal(cache.peek('a.test', 'abc')?.url, 'https://example.com/');
  assert.equal(inner.finds.length, 2, 'only one refresh in flight');
  inner.hold.resolve();
  inner.hold = null;
  await settle();
  assert.equal(cache.peek('a.test', 'abc')?.url, 'https://new.example/');
  assert.equal(inner.finds.length, 2);
});

test('a failed refresh leaves the stale entry; the next peek tries again', async () => {
  const { inner, cache, advance } = setup();
  inner.links.set('a.test abc', link());
  await cache.find('a.test', 'abc');
  advance(TTL + 1);
  const find = inner.find.bind(inner);
  inner.find = async (host, alias) => {
    inner.finds.push(`${host} ${alias}`);
    throw new Error('db down');
  };
  assert.equal(cache.peek('a.test', 'abc')?.id, 1);
  await settle();
  inner.find = find;
  assert.equal(cache.peek('a.test', 'abc')?.id, 1);
  assert.equal(inner.finds.length, 3);
});

test('peek does not serve a link expired for more than a TTL, nor an expired miss', async () => {
  const { inner, cache, advance } = setup();
  inner.links.set('a.test abc', link());
  await cache.find('a.test', 'abc');
  await cache.find('a.test', 'missing');
  advance(MISS_TTL + 1);
  assert.equal(cache.peek('a.test', 'missing'), undefined);
  advance(2 * TTL);
  assert.equal(cache.peek('a.test', 'abc'), undefined);
  await settle();
  assert.equal(inner.finds.length, 2, 'no refresh started');
});

for (const change of ['linkChanged', 'accountChanged'] as const) {
  test(`a refresh overtaken by ${change} stores what it reads again, not what it read before`, async () => {
    const { inner, cache, advance } = setup();
    inner.links.set('a.test abc', link());
    await cache.find('a.test', 'abc');
    advance(TTL + 1);
    inner.hold = deferred<void>();
    assert.equal(cache.peek('a.test', 'abc')?.id, 1);
    // The write lands after the refresh read the old version.
    await settle();
    inner.links.set('a.test abc', link({ url: 'https://new.example/' }));
    if (change === 'linkChanged') cache.linkChanged(1);
    else cache.accountChanged(10);
    const hold = inner.hold;
    inner.hold = null;
    hold.resolve();
    await settle();
    assert.equal(cache.peek('a.test', 'abc')?.url, 'https://new.example/');
    assert.deepEqual(inner.finds, ['a.test abc', 'a.test abc', 'a.test abc']);
  });
}

test('a change to another link does not make a read start again', async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link());
  inner.hold = deferred<void>();
  const reading = cache.find('a.test', 'abc');
  await settle();
  cache.linkChanged(2, 'other');
  cache.accountChanged(20);
  const hold = inner.hold;
  inner.hold = null;
  hold.resolve();
  assert.equal((await reading)?.id, 1);
  assert.equal(inner.finds.length, 1);
  assert.equal(cache.peek('a.test', 'abc')?.id, 1);
});

test('linkChanged drops that link under every key it has, and the misses of the alias it names, nothing else', async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link());
  inner.links.set('b.test abc', link());
  inner.links.set('a.test xyz', link({ id: 2, alias: 'xyz' }));
  for (const [h, a] of [
    ['a.test', 'abc'],
    ['b.test', 'abc'],
    ['a.test', 'xyz'],
    ['a.test', 'missing'],
    ['b.test', 'missing'],
    ['a.test', 'gone'],
  ])
    await cache.find(h!, a!);
  cache.linkChanged(1);
  assert.equal(cache.peek('a.test', 'abc'), undefined);
  assert.equal(cache.peek('b.test', 'abc'), undefined);
  assert.equal(cache.peek('a.test', 'missing'), null, 'no alias named: the misses stay');
  assert.equal(cache.peek('a.test', 'xyz')?.id, 2);
  cache.linkChanged(3, 'Missing');
  assert.equal(cache.peek('a.test', 'missing'), undefined);
  assert.equal(cache.peek('b.test', 'missing'), undefined);
  assert.equal(cache.peek('a.test', 'gone'), null);
  assert.equal(cache.peek('a.test', 'xyz')?.id, 2);
  assert.equal(cache.sizes.links, 1);
  assert.equal(cache.sizes.misses, 1);
});

test("accountChanged drops the account's links, every domain's answer and every miss", async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link({ id: 1, accountId: 10 }));
  inner.links.set('a.test xyz', link({ id: 2, accountId: 20, alias: 'xyz' }));
  inner.domains.set('a.test', domainOf(1, 10));
  inner.domains.set('b.test', domainOf(2, 20));
  for (const a of ['abc', 'xyz', 'missing']) await cache.find('a.test', a);
  for (const h of ['a.test', 'b.test', 'c.test']) await cache.domain(h);
  cache.accountChanged(10);
  assert.equal(cache.peek('a.test', 'abc'), undefined);
  assert.equal(cache.peek('a.test', 'missing'), undefined);
  assert.equal(cache.peek('a.test', 'xyz')?.id, 2);
  for (const h of ['a.test', 'b.test', 'c.test']) await cache.domain(h);
  assert.deepEqual(inner.domainReads, ['a.test', 'b.test', 'c.test', 'a.test', 'b.test', 'c.test']);
});

test('everythingChanged: no entry is served again before a read, and every read on its way is overtaken', async () => {
  const { inner, cache } = setup();
  inner.links.set('a.test abc', link());
  inner.links.set('a.test xyz', link({ id: 2, alias: 'xyz' }));
  await cache.find('a.test', 'abc');
  await cache.find('a.test', 'missing');
  inner.hold = deferred<void>();
  const reading = cache.find('a.test', 'xyz');
  await settle();
  cache.everythingChanged();
  const hold = inner.hold;
  inner.hold = null;
  hold.resolve();
  await reading;
  assert.equal(cache.peek('a.test', 'abc'), undefined);
  assert.equal(cache.peek('a.test', 'missing'), undefined);
  assert.equal(cache.peek('a.test', 'xyz')?.id, 2, 'read again after the change, and kept');
  assert.deepEqual(inner.finds.slice(2), ['a.test xyz', 'a.test xyz']);
});

test('CLOCK eviction: an entry read since the last pass gets a second chance, the oldest unread one goes', async () => {
  const { inner, cache } = setup({ maxEntries: 3 });
  const aliases = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  for (const a of aliases) inner.links.set(`h ${a}`, link({ alias: a }));
  for (const a of ['a', 'b', 'c']) await cache.find('h', a);
  await cache.find('h', 'a'); // read: a survives the next pass, its flag cleared
  await cache.find('h', 'd'); // evicts b, the oldest unread: c, d, a
  await cache.find('h', 'c'); // read: c survives the next pass
  await cache.find('h', 'e'); // c moves to the end, d goes: a, e, c
  await cache.find('h', 'f'); // nothing read since: a, whose second chance was used, goes
  assert.deepEqual(
    aliases.filter((a) => cache.peek('h', a) !== undefined),
    ['c', 'e', 'f'],
  );
  assert.equal(inner.finds.length, 6);
  for (const a of aliases) await cache.find('h', a);
  assert.equal(aliases.filter((a) => cache.peek('h', a) !== undefined).length, 3);
});

test('domain caches answers, misses included, per host', async () => {
  const { inner, cache, advance } = setup();
  inner.domains.set('a.test', domainOf(1, 10));
  assert.deepEqual(await cache.domain('a.test'), domainOf(1, 10));
  assert.equal(await cache.domain('b.test'), null);
  assert.deepEqual(await cache.domain('a.test'), domainOf(1, 10));
  assert.equal(await cache.domain('b.test'), null);
  assert.deepEqual(inner.domainReads, ['a.test', 'b.test']);
  advance(MISS_TTL + 1);
  await cache.domain('a.test');
  await cache.domain('b.test');
  assert.deepEqual(inner.domainReads, ['a.test', 'b.test', 'b.test']);
});
