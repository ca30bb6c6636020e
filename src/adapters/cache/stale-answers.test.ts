// Issue 30, finding 7: while the database cannot be read, a link the cache holds — past its time,
// or doubted after a Redis gap — is answered from its last known state; one that an invalidation
// received removed is not, and neither is a link never held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainNameSource, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import { CachedRedirectSource } from './cached-redirect-source.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';

const TTL = 1000;
const PROBE_MS = 1000;

/** Answers from `links` (keyed "host alias") until `down`, then fails as the pool does; counts reads. */
class OutageSource implements RedirectLinkSource, DomainNameSource {
  links = new Map<string, RedirectLink>();
  down: Error | null = null;
  finds = 0;
  nameReads = 0;

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    this.finds++;
    if (this.down) throw this.down;
    return this.links.get(`${host} ${alias.toLowerCase()}`) ?? null;
  }

  async domain() {
    if (this.down) throw this.down;
    return null;
  }

  async domainNames(): Promise<string[]> {
    this.nameReads++;
    if (this.down) throw this.down;
    return ['brand.test'];
  }
}

function setup() {
  let t = 1_700_000_000_000;
  const told: string[] = [];
  const inner = new OutageSource();
  const cache = new CachedRedirectSource(inner, {
    ttlMs: TTL,
    missTtlMs: 100,
    maxEntries: 100,
    appHost: 'short.test',
    now: () => t,
    onStale: (message) => told.push(message),
  });
  inner.links.set('short.test abc', aRedirectLink({ alias: 'abc', url: 'https://example.com/before' }));
  inner.links.set(
    'brand.test abc',
    aRedirectLink({ id: 2, alias: 'abc', domainId: 1, url: 'https://example.com/brand' }),
  );
  const cut = () => void (inner.down = new UnavailableError('database'));
  return { inner, cache, told, cut, advance: (ms: number) => void (t += ms) };
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

test('a link past its time and its extra time: the database away, its last known state answers', async () => {
  const { cache, cut, advance, told } = setup();
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/before');
  advance(3 * TTL);
  cut();
  assert.equal(cache.peek('short.test', 'abc'), undefined, 'past its extra time the fast path does not serve it');
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/before');
  assert.equal(cache.counts.stale, 1);
  assert.deepEqual(told, ['the database cannot be read: cached links are answered from their last known state']);
  // A link never held has no last known state: the outage is the answer.
  await assert.rejects(cache.find('short.test', 'never'), UnavailableError);
});

test('everythingChanged (a Redis gap): read again while the database answers, the last known state while it cannot', async () => {
  const { inner, cache, cut, told } = setup();
  await cache.find('short.test', 'abc');
  await cache.find('brand.test', 'abc');
  cache.everythingChanged();
  assert.equal(cache.peek('short.test', 'abc'), undefined, 'doubted: not served without a read');
  // The database answers: what changed meanwhile is read, not served from memory.
  inner.links.set('short.test abc', aRedirectLink({ alias: 'abc', url: 'https://example.com/after' }));
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/after');
  const reads = inner.finds;

  cache.everythingChanged();
  // The domain names' reload fails too: the list in hand still tells brand.test's links apart.
  cut();
  await settle();
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/after');
  assert.equal((await cache.find('brand.test', 'abc'))?.url, 'https://example.com/brand');
  assert.equal(
    (await cache.find('elsewhere.test', 'ABC'))?.url,
    'https://example.com/after',
    "any other host is the app's",
  );
  assert.equal(cache.counts.stale, 3);
  assert.ok(inner.finds <= reads + 1, `${inner.finds - reads} reads during the outage`);
  assert.equal(told.length, 1);
});

for (const change of ['linkChanged', 'accountChanged'] as const) {
  test(`${change} received: the link is never answered stale, before or during the outage`, async () => {
    const { cache, cut, advance } = setup();
    await cache.find('short.test', 'abc');
    if (change === 'linkChanged') cache.linkChanged(1);
    else cache.accountChanged(10);
    cut();
    await assert.rejects(cache.find('short.test', 'abc'), UnavailableError);
    advance(TTL);
    await assert.rejects(cache.find('short.test', 'abc'), UnavailableError);
    assert.equal(cache.counts.stale, 0);
  });
}

test('an invalidation received while the failing read was on its way is honoured', async () => {
  const { inner, cache, advance } = setup();
  await cache.find('short.test', 'abc');
  advance(3 * TTL);
  let fail!: () => void;
  inner.find = () => new Promise((_, reject) => (fail = () => reject(new UnavailableError('database'))));
  const visiting = cache.find('short.test', 'abc');
  await settle();
  cache.linkChanged(1);
  fail();
  await assert.rejects(visiting, UnavailableError);
});

test('a failure other than the database being away is not hidden by a stale answer', async () => {
  const { inner, cache, advance } = setup();
  await cache.find('short.test', 'abc');
  advance(3 * TTL);
  inner.down = new Error('a bug');
  await assert.rejects(cache.find('short.test', 'abc'), /a bug/);
  assert.equal(cache.counts.stale, 0);
});

test('while the database is away, visits do not each try it: one read a second, and its return ends the stale answers', async () => {
  const { inner, cache, cut, advance, told } = setup();
  await cache.find('short.test', 'abc');
  cache.everythingChanged();
  cut();
  const before = inner.finds;
  for (let i = 0; i < 50; i++) assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/before');
  await settle();
  assert.equal(inner.finds - before, 1, 'only the first visit tried the database');
  advance(PROBE_MS);
  for (let i = 0; i < 50; i++) await cache.find('short.test', 'abc');
  await settle();
  assert.equal(inner.finds - before, 2, 'one more a second later, in the background');

  inner.down = null;
  inner.links.set('short.test abc', aRedirectLink({ alias: 'abc', url: 'https://example.com/after' }));
  advance(PROBE_MS);
  // This visit's read is the probe: it still gets the last known state; the probe stores what it read.
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/before');
  await settle();
  assert.equal(cache.peek('short.test', 'abc')?.url, 'https://example.com/after');
  assert.equal((await cache.find('short.test', 'abc'))?.url, 'https://example.com/after');
  assert.equal(told.length, 2);
  assert.match(told[1]!, /read from the database again \(\d+ visits were answered from their last known state\)/);
});

test('peek: a link just past its time is still served during the outage, refreshed once a second, not on every visit', async () => {
  const { inner, cache, cut, advance } = setup();
  await cache.find('short.test', 'abc');
  advance(TTL + 1);
  cut();
  const before = inner.finds;
  assert.equal(cache.peek('short.test', 'abc')?.url, 'https://example.com/before');
  await settle();
  for (let i = 0; i < 20; i++) assert.equal(cache.peek('short.test', 'abc')?.url, 'https://example.com/before');
  await settle();
  assert.equal(inner.finds - before, 1);
});

test('a warm-up replaces an entry past its time, not a fresh one', async () => {
  const { cache } = setup();
  await cache.find('short.test', 'abc');
  let mark = cache.mark;
  assert.equal(
    cache.prime([{ host: null, link: aRedirectLink({ alias: 'abc', url: 'https://example.com/primed' }) }], mark),
    0,
  );
  cache.everythingChanged();
  mark = cache.mark;
  assert.equal(
    cache.prime([{ host: null, link: aRedirectLink({ alias: 'abc', url: 'https://example.com/primed' }) }], mark),
    1,
  );
  assert.equal(cache.peek('short.test', 'abc')?.url, 'https://example.com/primed');
});
