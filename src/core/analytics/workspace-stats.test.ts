import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostOf, qrEntries, topOf, urlValuesOf, utmOf } from './workspace-stats.ts';
import { firstLinks, LinkRanking, type LinkSum } from './link-ranking.ts';
import { arrange } from '../stats/stats-service.ts';

test("a URL's values: the host without www., the UTM values, null for none or an address that is not a URL", () => {
  assert.deepEqual(urlValuesOf('https://WWW.Shop.example/x?utm_source=news&utm_medium='), {
    destinations: 'shop.example',
    utm_source: 'news',
    utm_medium: null,
    utm_campaign: null,
  });
  assert.deepEqual(urlValuesOf('not a url'), {
    destinations: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
  });
  assert.equal(hostOf('https://www.a.example:8080/p'), 'a.example');
  assert.equal(utmOf('https://a.example/?utm_campaign=spring%20sale', 'utm_campaign'), 'spring sale');
});

test('QR scans against every other visit, from the scans and every click (never below 0)', () => {
  assert.deepEqual(
    qrEntries([
      { value: 'qr', count: 3 },
      { value: null, count: 12 },
    ]),
    [
      { value: 'qr', count: 3 },
      { value: 'link', count: 9 },
    ],
  );
  assert.deepEqual(qrEntries([]), [
    { value: 'qr', count: 0 },
    { value: 'link', count: 0 },
  ]);
  assert.deepEqual(qrEntries([{ value: 'qr', count: 2 }]), [
    { value: 'qr', count: 2 },
    { value: 'link', count: 0 },
  ]);
});

test("the top entries are arrange's first, ties by value, without sorting every entry", () => {
  const items = [5, 1, 9, 5, 3, 9, 0, 7, 5, 2].map((count, i) => ({ value: i % 3 === 0 ? null : `v${i}`, count }));
  for (const n of [0, 1, 3, 4, 10, 20])
    assert.deepEqual(topOf(items, n), arrange(items, undefined, 'max').slice(0, n), `top ${n}`);
});

/** A ranking of random settled and recent sums, and what a full sort of the merged sums answers. */
function randomRanking(seed: number): { ranking: LinkRanking; merged: Map<number, number> } {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const settled = new Map<number, number>();
  const recent = new Map<number, number>();
  for (let id = 1; id <= 200; id++) {
    if (next(3) > 0) settled.set(id, 1 + next(6));
    if (next(4) === 0) recent.set(id, 1 + next(4));
  }
  const sorted: LinkSum[] = [...settled].map(([linkId, clicks]) => ({ linkId, clicks }));
  sorted.sort((a, b) => b.clicks - a.clicks);
  const merged = new Map(settled);
  for (const [id, n] of recent) merged.set(id, (merged.get(id) ?? 0) + n);
  return { ranking: new LinkRanking(sorted, settled, recent), merged };
}

test('a link ranking walks the settled and recent sums merged, in order, each link once; size and clicksOf agree', () => {
  for (const seed of [1, 7, 42]) {
    const { ranking, merged } = randomRanking(seed);
    assert.equal(ranking.size, merged.size);
    for (const order of ['max', 'min'] as const) {
      const walked = [...ranking.inOrder(order)];
      assert.equal(new Set(walked.map((w) => w.linkId)).size, merged.size);
      for (const w of walked) assert.equal(w.clicks, merged.get(w.linkId));
      for (let i = 1; i < walked.length; i++)
        assert.ok(
          order === 'max' ? walked[i - 1]!.clicks >= walked[i]!.clicks : walked[i - 1]!.clicks <= walked[i]!.clicks,
        );
    }
    assert.equal(ranking.all().length, merged.size);
    assert.equal(ranking.clicksOf(5), merged.get(5) ?? 0);
  }
});

test("the first links are arrange's over every link by alias, a gone link skipped, aliases read only near the top", async () => {
  const { ranking, merged } = randomRanking(3);
  const gone = new Set([...merged.keys()].filter((id) => id % 11 === 0));
  // Aliases that do not follow ids, so that a tie is decided by the alias.
  const aliasOf = (id: number) => `l${(id * 37) % 101}-${id}`;
  const every = [...merged]
    .filter(([id]) => !gone.has(id))
    .map(([linkId, count]) => ({ value: aliasOf(linkId), count, linkId }));
  for (const order of ['max', 'min'] as const)
    for (const n of [1, 10, 25, 500]) {
      let read = 0;
      const first = await firstLinks(ranking, order, n, async (ids) => {
        read += ids.length;
        return new Map(ids.filter((id) => !gone.has(id)).map((id) => [id, aliasOf(id)] as const));
      });
      assert.deepEqual(first, arrange(every, undefined, order).slice(0, n), `${order} ${n}`);
      if (n === 10) assert.ok(read < merged.size / 2, `${read} aliases read for the top 10`);
    }
});
