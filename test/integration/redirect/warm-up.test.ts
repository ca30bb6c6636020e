// The link cache's warm-up on both engines: the links most clicked over the last days are
// loaded (custom domains' under their names, pixels with them), in batches, and then answered
// without a read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RedirectLink } from '../../../src/core/redirect/redirect-link.ts';
import { CachedRedirectSource } from '../../../src/adapters/cache/cached-redirect-source.ts';
import { warmUp } from '../../../src/adapters/cache/warm-up.ts';
import { SqlRedirectLinkSource } from '../../../src/adapters/storage/stores/redirect-link-source.ts';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { makeDomain, makeLink, visit } from './redirect-support.ts';
import { createPixel } from './visitor-support.ts';

/** The redirect's reads on the harness's database, counting the links read one by one. */
class CountingSource extends SqlRedirectLinkSource {
  finds = 0;
  batches: number[] = [];
  override find(host: string, alias: string): Promise<RedirectLink | null> {
    this.finds++;
    return super.find(host, alias);
  }
  override byIds(ids: readonly number[]) {
    this.batches.push(ids.length);
    return super.byIds(ids);
  }
}

function freshCache(h: Harness) {
  const source = new CountingSource(h.server.container.storage.db, new Set(['short.test']), h.engine);
  const cache = new CachedRedirectSource(source, {
    ttlMs: 60_000,
    missTtlMs: 2000,
    maxEntries: 100,
    appHost: 'short.test',
  });
  return { source, cache };
}

async function visits(h: Harness, path: string, n: number, host?: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    // Do-not-track: a pixel link's visit is a plain redirect, and counts.
    const res = await visit(h, path, { dnt: '1', ...(host ? { host } : {}) });
    assert.equal(res.status, 302, path);
  }
}

onEachEngine('link cache warm-up', (h) => {
  test('loads the most clicked links, in batches, then answers them without a read', async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const pixel = await createPixel(h(), key, 'facebook', 'fb123456');
    const hot = await makeLink(h(), key, { url: 'https://example.com/hot' });
    const withPixel = await makeLink(h(), key, { url: 'https://example.com/pixel', pixels: [pixel.id] });
    const onDomain = await makeLink(h(), key, { url: 'https://example.com/domain', domain: domain.id });
    const warm = await makeLink(h(), key, { url: 'https://example.com/warm' });
    const cold = await makeLink(h(), key, { url: 'https://example.com/cold' });
    const never = await makeLink(h(), key, { url: 'https://example.com/never' });
    await visits(h(), `/${hot.alias}`, 5);
    await visits(h(), `/${withPixel.alias}`, 4);
    await visits(h(), `/${onDomain.alias}`, 3, domain.name);
    await visits(h(), `/${warm.alias}`, 2);
    await visits(h(), `/${cold.alias}`, 1);
    await h().server.container.visits.sink.flush();

    const { source, cache } = freshCache(h());
    assert.equal(await warmUp(cache, source, { count: 4, batch: 3 }), 4);
    assert.deepEqual(source.batches, [3, 1]);
    assert.equal(cache.peek('short.test', hot.alias)?.url, 'https://example.com/hot');
    assert.deepEqual(cache.peek('short.test', withPixel.alias)?.pixels, [{ type: 'facebook', value: 'fb123456' }]);
    assert.equal(cache.peek(domain.name, onDomain.alias)?.url, 'https://example.com/domain');
    assert.equal(cache.peek('short.test', onDomain.alias), undefined, 'a domain link is not the app host');
    assert.equal(cache.peek('short.test', warm.alias)?.id, warm.id);
    assert.equal(cache.peek('short.test', cold.alias), undefined, 'fifth: past the count');
    assert.equal(cache.peek('short.test', never.alias), undefined);
    assert.equal(source.finds, 0);
    assert.equal((await cache.find('short.test', hot.alias.toUpperCase()))?.id, hot.id);
    assert.equal(source.finds, 0);
  });

  test("the server's own warm-up (LINK_CACHE_WARM) loads every clicked link; a count of 0 reads nothing", async () => {
    const { visits: runtime } = h().server.container;
    assert.equal(await runtime.warmUp(), 0, 'every clicked link is cached already: nothing replaced');
    runtime.source.everythingChanged();
    assert.equal(await runtime.warmUp(), 5);
    const { source, cache } = freshCache(h());
    assert.equal(await warmUp(cache, source, { count: 0 }), 0);
    assert.deepEqual(source.batches, []);
  });

  test('a warm-up stopped by its signal reads no further batch', async () => {
    const { source, cache } = freshCache(h());
    const stop = new AbortController();
    stop.abort();
    assert.equal(await warmUp(cache, source, { count: 10, batch: 1, signal: stop.signal }), 0);
    assert.deepEqual(source.batches, []);
  });
});
