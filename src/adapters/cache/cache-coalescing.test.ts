// Cold misses: concurrent misses of one key share one read; a failed read fails them all and
// is not remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainNameSource, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import { CachedRedirectSource } from './cached-redirect-source.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';

/** Every find waits until release(); it then answers `answer` (or throws `failure`). */
class GatedSource implements RedirectLinkSource, DomainNameSource {
  finds: string[] = [];
  answer: RedirectLink | null = aRedirectLink({ alias: 'abc' });
  failure: Error | null = null;
  private gates: Array<() => void> = [];

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    this.finds.push(`${host} ${alias}`);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    if (this.failure) throw this.failure;
    return this.answer;
  }

  release(): void {
    for (const open of this.gates.splice(0)) open();
  }

  async domain() {
    return null;
  }

  async domainNames(): Promise<string[]> {
    return ['custom.test'];
  }
}

const N = 50;

function setup() {
  const inner = new GatedSource();
  const cache = new CachedRedirectSource(inner, {
    ttlMs: 60_000,
    missTtlMs: 2000,
    maxEntries: 100,
    appHost: 'short.test',
  });
  return { inner, cache };
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

test(`${N} concurrent misses of one link make one read, and all get its answer`, async () => {
  const { inner, cache } = setup();
  // Any case of the alias, and any host that is no custom domain's, is the same key.
  const waiting = Array.from({ length: N }, (_, i) =>
    cache.find(i % 2 ? 'short.test' : 'elsewhere.test', i % 3 ? 'abc' : 'ABC'),
  );
  await settle();
  assert.equal(inner.finds.length, 1);
  inner.release();
  const answers = await Promise.all(waiting);
  assert.ok(answers.every((a) => a?.id === 1));
  assert.equal(cache.peek('short.test', 'abc')?.id, 1);
  assert.equal(inner.finds.length, 1);
});

test(`${N} concurrent misses of an unknown alias make one read; the miss is remembered briefly`, async () => {
  const { inner, cache } = setup();
  inner.answer = null;
  const waiting = Array.from({ length: N }, () => cache.find('short.test', 'nope'));
  await settle();
  inner.release();
  assert.ok((await Promise.all(waiting)).every((a) => a === null));
  assert.equal(cache.peek('short.test', 'nope'), null);
  assert.equal(await cache.find('short.test', 'nope'), null);
  assert.equal(inner.finds.length, 1);
});

test('different keys are read apart', async () => {
  const { inner, cache } = setup();
  const waiting = [cache.find('short.test', 'abc'), cache.find('short.test', 'xyz'), cache.find('custom.test', 'abc')];
  await settle();
  assert.deepEqual(inner.finds.sort(), ['custom.test abc', 'short.test abc', 'short.test xyz']);
  inner.release();
  await Promise.all(waiting);
});

test('a failed read rejects every waiter, and is not remembered: the next miss reads again', async () => {
  const { inner, cache } = setup();
  inner.failure = new Error('database away');
  const waiting = Array.from({ length: N }, () => cache.find('short.test', 'abc'));
  await settle();
  assert.equal(inner.finds.length, 1);
  inner.release();
  const settled = await Promise.allSettled(waiting);
  assert.ok(settled.every((s) => s.status === 'rejected' && s.reason === inner.failure));
  assert.equal(cache.peek('short.test', 'abc'), undefined);

  inner.failure = null;
  const again = cache.find('short.test', 'abc');
  await settle();
  assert.equal(inner.finds.length, 2);
  inner.release();
  assert.equal((await again)?.id, 1);
});

test("a stale entry's background refresh and a visit's read are one read", async () => {
  let t = 0;
  const inner = new GatedSource();
  const cache = new CachedRedirectSource(inner, {
    ttlMs: 1000,
    missTtlMs: 100,
    maxEntries: 100,
    appHost: 'short.test',
    now: () => t,
  });
  const first = cache.find('short.test', 'abc');
  await settle();
  inner.release();
  await first;
  t += 1500; // past its time, within a TTL more: served stale while refreshed
  inner.answer = aRedirectLink({ alias: 'abc', url: 'https://new.example/' });
  assert.equal(cache.peek('short.test', 'abc')?.url, 'https://example.com/');
  t += 1000; // now too old to serve: a visit reads it, and joins the refresh on its way
  const visit = cache.find('short.test', 'abc');
  await settle();
  assert.equal(inner.finds.length, 2);
  inner.release();
  assert.equal((await visit)?.url, 'https://new.example/');
});
