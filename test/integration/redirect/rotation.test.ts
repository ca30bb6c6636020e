// api.md §7 step 5: rotation is an exact, atomic round-robin over the rotation entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { UA, clickRows, makeLink, readLink, redirectsTo, visit } from './redirect-support.ts';

const entries = (k: number) => Array.from({ length: k }, (_, i) => `https://r${i}.example.com/`);

/** How many times each entry was served. */
function tally(urls: string[], of: string[]): number[] {
  return of.map((u) => urls.filter((x) => x === u).length);
}

onEachEngine('redirect: rotation', (h) => {
  test('consecutive visits walk the entries in order, cycle after cycle', async () => {
    const { key } = await h().account();
    const list = entries(3);
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 4,
      rotation: list.map((value) => ({ value })),
    });
    const served: string[] = [];
    for (let i = 0; i < 7; i++) served.push(await redirectsTo(h(), `/${link.alias}`));
    const start = list.indexOf(served[0]!);
    assert.notEqual(start, -1, `served ${served[0]}, not an entry`);
    assert.deepEqual(
      served,
      served.map((_, i) => list[(start + i) % 3]),
      'not a round-robin',
    );
    // last_rotation is the position served last.
    await h().server.container.visits.sink.flush();
    assert.equal((await readLink(h(), key, link.id)).last_rotation, list.indexOf(served[6]!));
    assert.equal((await clickRows(h(), link.id)).length, 7);
  });

  test('N concurrent visits give each of k entries ⌊N/k⌋ or ⌈N/k⌉ of them', async () => {
    const { key } = await h().account();
    for (const [n, k] of [
      [30, 3],
      [41, 4],
      [50, 7],
    ] as const) {
      const list = entries(k);
      const link = await makeLink(h(), key, {
        url: 'https://example.com/',
        target_type: 4,
        rotation: list.map((value) => ({ value })),
      });
      const served = await Promise.all(Array.from({ length: n }, () => redirectsTo(h(), `/${link.alias}`)));
      const counts = tally(served, list);
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        n,
        `a visit went elsewhere: ${served.join(' ')}`,
      );
      for (const c of counts) {
        assert.ok(c === Math.floor(n / k) || c === Math.ceil(n / k), `N=${n} k=${k}: ${counts.join(',')}`);
      }
    }
  });

  test('the round-robin goes on where it was after the link is edited', async () => {
    const { key } = await h().account();
    const list = entries(2);
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 4,
      rotation: list.map((value) => ({ value })),
    });
    const first = await redirectsTo(h(), `/${link.alias}`);
    const put = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { title: 'edited' } });
    assert.equal(put.status, 200, put.text);
    const second = await redirectsTo(h(), `/${link.alias}`);
    assert.notEqual(second, first, 'an edit restarted the rotation');
  });

  test('HEAD neither advances the rotation nor counts', async () => {
    const { key } = await h().account();
    const list = entries(3);
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 4,
      rotation: list.map((value) => ({ value })),
    });
    const first = await redirectsTo(h(), `/${link.alias}`);
    for (let i = 0; i < 4; i++) {
      const head = await visit(h(), `/${link.alias}`, {}, 'HEAD');
      assert.equal(head.status, 302);
      assert.ok(list.includes(head.location!), head.location);
    }
    const second = await redirectsTo(h(), `/${link.alias}`);
    assert.equal(list.indexOf(second), (list.indexOf(first) + 1) % 3, 'HEAD moved the rotation');
    assert.equal((await clickRows(h(), link.id)).length, 2);
  });

  test('a single rotation entry always serves that entry', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 4,
      rotation: [{ value: 'https://only.example.com/' }],
    });
    for (let i = 0; i < 3; i++) assert.equal(await redirectsTo(h(), `/${link.alias}`), 'https://only.example.com/');
  });

  test('human visits stay balanced when bots visit too', async () => {
    const { key } = await h().account();
    const list = entries(2);
    const link = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 4,
      rotation: list.map((value) => ({ value })),
    });
    const served: string[] = [];
    for (let i = 0; i < 10; i++) {
      served.push(await redirectsTo(h(), `/${link.alias}`));
      assert.equal((await visit(h(), `/${link.alias}`, { 'user-agent': UA.googlebot })).status, 302);
    }
    const counts = tally(served, list);
    assert.ok(Math.abs(counts[0]! - counts[1]!) <= 1, `humans saw ${counts.join(',')}`);
  });
});
