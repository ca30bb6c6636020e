import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { idsOf, listLinks, makeDomain, makeLink, makePixel, makeSpace } from './links-support.ts';

onEachEngine('links API: list filters, status and sort', (h) => {
  /** Click counting is not built yet: the tests set the column directly. */
  async function setClicks(id: number, clicks: number): Promise<void> {
    await h().server.container.storage.db.updateTable('links').set({ clicks }).where('id', '=', id).execute();
  }

  test('space, domain and pixel filters, under both names, combined with each other and with search', async () => {
    const { key } = await h().account();
    const [s1, s2] = [await makeSpace(h(), key), await makeSpace(h(), key)];
    const [d1, d2] = [await makeDomain(h(), key), await makeDomain(h(), key)];
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const a = await makeLink(h(), key, { space: s1.id, domain: d1.id, pixels: [p1.id], title: 'alpha' });
    const b = await makeLink(h(), key, { space: s1.id, pixels: [p1.id, p2.id], title: 'beta' });
    const c = await makeLink(h(), key, { space: s2.id, domain: d1.id, pixels: [p2.id], title: 'gamma' });
    const d = await makeLink(h(), key, { domain: d2.id, title: 'alphabet' });
    await makeLink(h(), key, { title: 'nothing attached' });

    for (const [name, alt] of [
      ['space', 'space_id'],
      ['domain', 'domain_id'],
      ['pixel', 'pixel_id'],
    ] as const) {
      const cases: Record<string, [number, number[]][]> = {
        space: [
          [s1.id, [b.id, a.id]],
          [s2.id, [c.id]],
        ],
        domain: [
          [d1.id, [c.id, a.id]],
          [d2.id, [d.id]],
        ],
        pixel: [
          [p1.id, [b.id, a.id]],
          [p2.id, [c.id, b.id]],
        ],
      };
      for (const [id, expected] of cases[name]!) {
        assert.deepEqual(await idsOf(h(), key, `${name}=${id}`), expected, `${name}=${id}`);
        assert.deepEqual(await idsOf(h(), key, `${alt}=${id}`), expected, `${alt}=${id}`);
      }
      assert.deepEqual(await idsOf(h(), key, `${name}=999999`), []);
    }
    assert.deepEqual(await idsOf(h(), key, `space=${s1.id}&pixel=${p2.id}`), [b.id]);
    assert.deepEqual(await idsOf(h(), key, `domain_id=${d1.id}&pixel_id=${p1.id}`), [a.id]);
    assert.deepEqual(await idsOf(h(), key, `search=alpha&domain=${d1.id}`), [a.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=alpha'), [d.id, a.id]);
    const counted = await listLinks(h(), key, `pixel=${p2.id}&per_page=10`);
    assert.equal(counted.meta.total, 2);
    assert.ok(counted.links.first.includes(`pixel=${p2.id}`));
  });

  test('status partitions links into active, expired and disabled', async () => {
    const { key } = await h().account();
    const active = await makeLink(h(), key);
    const future = await makeLink(h(), key, { expiration_date: '2099-01-01', expiration_time: '00:00' });
    const pastDate = await makeLink(h(), key, { expiration_date: '2001-01-01', expiration_time: '00:00' });
    const usedUp = await makeLink(h(), key, { expiration_clicks: 5 });
    await setClicks(usedUp.id, 5);
    const overUsed = await makeLink(h(), key, { expiration_clicks: 2 });
    await setClicks(overUsed.id, 3);
    const almost = await makeLink(h(), key, { expiration_clicks: 5 });
    await setClicks(almost.id, 4);
    const noLimit = await makeLink(h(), key, { expiration_clicks: 0 });
    await setClicks(noLimit.id, 1000);
    const disabled = await makeLink(h(), key, { disabled: 1 });
    const disabledExpired = await makeLink(h(), key, {
      disabled: 1,
      expiration_date: '2001-01-01',
      expiration_time: '00:00',
    });

    const all = await idsOf(h(), key);
    const byStatus = {
      1: await idsOf(h(), key, 'status=1'),
      2: await idsOf(h(), key, 'status=2'),
      3: await idsOf(h(), key, 'status=3'),
    };
    assert.deepEqual(await idsOf(h(), key, 'status=0'), all);
    assert.deepEqual(byStatus[1], [noLimit.id, almost.id, future.id, active.id]);
    assert.deepEqual(byStatus[2], [overUsed.id, usedUp.id, pastDate.id]);
    assert.deepEqual(byStatus[3], [disabledExpired.id, disabled.id]);
    assert.deepEqual(
      [...byStatus[1], ...byStatus[2], ...byStatus[3]].sort((x, y) => x - y),
      all.slice().sort((x, y) => x - y),
    );
    assert.equal((await listLinks(h(), key, 'status=2')).meta.total, 3);

    // Re-enabling and lifting limits move links between partitions.
    await h().request('PUT', `/api/v1/links/${disabledExpired.id}`, { key, form: { disabled: 0 } });
    await h().request('PUT', `/api/v1/links/${usedUp.id}`, { key, form: { expiration_clicks: '' } });
    await h().request('PUT', `/api/v1/links/${pastDate.id}`, {
      key,
      form: { expiration_date: '', expiration_time: '' },
    });
    assert.deepEqual(await idsOf(h(), key, 'status=2'), [disabledExpired.id, overUsed.id]);
    assert.deepEqual(await idsOf(h(), key, 'status=3'), [disabled.id]);
    assert.ok((await idsOf(h(), key, 'status=1')).includes(usedUp.id));
    assert.ok((await idsOf(h(), key, 'status=1')).includes(pastDate.id));
  });

  test('status combines with the other filters', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const a = await makeLink(h(), key, { space: space.id, disabled: 1, title: 'x' });
    await makeLink(h(), key, { space: space.id, title: 'x' });
    await makeLink(h(), key, { disabled: 1, title: 'x' });
    assert.deepEqual(await idsOf(h(), key, `status=3&space=${space.id}&search=X`), [a.id]);
  });

  test('sort: desc and asc by id, max and min by clicks with ties newest first', async () => {
    const { key } = await h().account();
    const l1 = await makeLink(h(), key);
    const l2 = await makeLink(h(), key);
    const l3 = await makeLink(h(), key);
    const l4 = await makeLink(h(), key);
    const l5 = await makeLink(h(), key);
    await setClicks(l1.id, 5);
    await setClicks(l2.id, 5);
    await setClicks(l3.id, 10);
    await setClicks(l5.id, 5);
    const ids = [l1, l2, l3, l4, l5].map((l) => l.id);
    assert.deepEqual(await idsOf(h(), key), ids.slice().reverse());
    assert.deepEqual(await idsOf(h(), key, 'sort=desc'), ids.slice().reverse());
    assert.deepEqual(await idsOf(h(), key, 'sort=asc'), ids);
    assert.deepEqual(await idsOf(h(), key, 'sort=max'), [l3.id, l5.id, l2.id, l1.id, l4.id]);
    assert.deepEqual(await idsOf(h(), key, 'sort=min'), [l4.id, l5.id, l2.id, l1.id, l3.id]);
    const read = await h().request('GET', `/api/v1/links/${l3.id}`, { key });
    assert.equal(read.body.data.clicks, 10);
  });

  test('sorting by clicks pages without repeating or losing a link', async () => {
    const { key } = await h().account();
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const l = await makeLink(h(), key);
      ids.push(l.id);
      await setClicks(l.id, i % 3);
    }
    for (const sort of ['max', 'min', 'asc', 'desc']) {
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = await listLinks(h(), key, `sort=${sort}&page=${page}`);
        seen.push(...body.data.map((l: { id: number }) => l.id));
      }
      assert.equal(new Set(seen).size, 25, sort);
      assert.deepEqual(
        seen.slice().sort((a, b) => a - b),
        ids,
        sort,
      );
    }
  });
});
