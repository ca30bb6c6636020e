import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { idsOf, listLinks, makeLink } from './links-support.ts';

const APP = 'http://short.test';

onEachEngine('links API: list pagination and search', (h) => {
  /** A fresh account with n links; ids returned oldest first. */
  async function accountWith(n: number, fields: (i: number) => Record<string, unknown> = () => ({})) {
    const account = await h().account();
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await makeLink(h(), account.key, { url: `https://example.com/${i}`, ...fields(i) })).id);
    return { key: account.key, ids };
  }

  test('an empty list has the full envelope', async () => {
    const { key } = await h().account();
    const body = await listLinks(h(), key);
    assert.deepEqual(body, {
      data: [],
      links: { first: `${APP}/api/v1/links?page=1`, last: `${APP}/api/v1/links?page=1`, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        path: `${APP}/api/v1/links`,
        per_page: 10,
        to: null,
        total: 0,
      },
      status: 200,
    });
  });

  test('default page: 10 newest first, with meta and absolute page links', async () => {
    const { key, ids } = await accountWith(23);
    const body = await listLinks(h(), key);
    assert.deepEqual(
      body.data.map((l: { id: number }) => l.id),
      ids.slice().reverse().slice(0, 10),
    );
    assert.deepEqual(body.meta, {
      current_page: 1,
      from: 1,
      last_page: 3,
      path: `${APP}/api/v1/links`,
      per_page: 10,
      to: 10,
      total: 23,
    });
    assert.deepEqual(body.links, {
      first: `${APP}/api/v1/links?page=1`,
      last: `${APP}/api/v1/links?page=3`,
      prev: null,
      next: `${APP}/api/v1/links?page=2`,
    });
    // Items are full link records.
    assert.equal(body.data[0].short_url, `${APP}/${body.data[0].alias}`);
    assert.deepEqual(body.data[0], (await h().request('GET', `/api/v1/links/${body.data[0].id}`, { key })).body.data);
  });

  test('page and per_page choose the slice; the last page is short', async () => {
    const { key, ids } = await accountWith(23);
    const newest = ids.slice().reverse();
    const p2 = await listLinks(h(), key, 'per_page=10&page=2');
    assert.deepEqual(
      p2.data.map((l: { id: number }) => l.id),
      newest.slice(10, 20),
    );
    assert.deepEqual([p2.meta.from, p2.meta.to, p2.meta.current_page], [11, 20, 2]);
    assert.equal(p2.links.prev, `${APP}/api/v1/links?per_page=10&page=1`);
    assert.equal(p2.links.next, `${APP}/api/v1/links?per_page=10&page=3`);
    const p3 = await listLinks(h(), key, 'page=3');
    assert.deepEqual(
      p3.data.map((l: { id: number }) => l.id),
      newest.slice(20),
    );
    assert.deepEqual([p3.meta.from, p3.meta.to, p3.links.next], [21, 23, null]);
    const all = await listLinks(h(), key, 'per_page=100');
    assert.equal(all.data.length, 23);
    assert.deepEqual([all.meta.last_page, all.meta.per_page, all.links.next], [1, 100, null]);
    const beyond = await listLinks(h(), key, 'page=9');
    assert.deepEqual(beyond.data, []);
    assert.deepEqual(
      [beyond.meta.from, beyond.meta.to, beyond.meta.total, beyond.meta.current_page],
      [null, null, 23, 9],
    );
    assert.equal(beyond.links.next, null);
  });

  test('following links.next walks every page once and keeps the filters', async () => {
    const { key, ids } = await accountWith(25, (i) => ({ title: i % 2 === 0 ? `Even ${i}` : `Odd ${i}` }));
    const evens = ids.filter((_, i) => i % 2 === 0);
    let next: string | null = `/api/v1/links?search=even&by=title&sort=asc&per_page=10&status=0`;
    const seen: number[] = [];
    let pages = 0;
    while (next) {
      const res = await h().request('GET', next, { key });
      assert.equal(res.status, 200, res.text);
      pages++;
      seen.push(...res.body.data.map((l: { id: number }) => l.id));
      for (const name of ['first', 'last', 'prev', 'next'] as const) {
        const link = res.body.links[name];
        if (link === null) continue;
        assert.ok(link.startsWith(`${APP}/api/v1/links?`), link);
        const q = new URL(link).searchParams;
        assert.deepEqual(
          [q.get('search'), q.get('by'), q.get('sort'), q.get('per_page'), q.get('status')],
          ['even', 'title', 'asc', '10', '0'],
        );
        assert.match(q.get('page') ?? '', /^\d+$/);
        assert.equal(q.getAll('page').length, 1);
      }
      next = res.body.links.next ? res.body.links.next.slice(APP.length) : null;
    }
    assert.equal(pages, 2);
    assert.deepEqual(seen, evens);
  });

  test('search: three characters or more anywhere in the title (by default), ignoring case; %, _ and \\ literal', async () => {
    const { key } = await h().account();
    const sale = await makeLink(h(), key, { title: 'Summer SALE now' });
    const under = await makeLink(h(), key, { title: 'summer_sale' });
    const pct = await makeLink(h(), key, { title: '100% off' });
    const plain = await makeLink(h(), key, { title: '100 percent off, summerXsale' });
    const lead = await makeLink(h(), key, { title: '_%_ first' });
    await makeLink(h(), key); // no title at all
    assert.deepEqual(await idsOf(h(), key, 'search=sale'), [plain.id, under.id, sale.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=SUMMER%20sale'), [sale.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=%25%20off'), [pct.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=r_s'), [under.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=summer_sale'), [under.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=100%25'), [pct.id]);
    // One or two characters match the start of the title: a wildcard would match every title.
    assert.deepEqual(await idsOf(h(), key, 'search=_'), [lead.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=_%25'), [lead.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=%25'), []);
    assert.deepEqual(await idsOf(h(), key, 'search=%5C'), []);
    assert.deepEqual(await idsOf(h(), key, 'search=nothing-like-this'), []);
    const counted = await listLinks(h(), key, 'search=sale&per_page=10');
    assert.equal(counted.meta.total, 3);
  });

  test('search ignores case beyond ASCII, and a backslash is literal', async () => {
    const { key } = await h().account();
    const summer = await makeLink(h(), key, { title: "Soldes d'ÉTÉ à Zürich" });
    const path = await makeLink(h(), key, { title: 'C:\\temp\\x' });
    const share = await makeLink(h(), key, { title: '\\\\host\\share' });
    const star = await makeLink(h(), key, { title: 'Étoile du nord' });
    for (const search of ['ÉTÉ', 'été', 'ZÜRICH', "d'été à"]) {
      assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent(search)}`), [summer.id], search);
    }
    for (const search of ['é', 'É', 'ét', 'ÉT']) {
      assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent(search)}`), [star.id], search);
    }
    assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent('\\temp\\')}`), [path.id]);
    assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent('\\')}`), [share.id]);
    assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent('\\\\')}`), [share.id]);
    assert.deepEqual(await idsOf(h(), key, `search=${encodeURIComponent('\\h')}`), []);
  });

  test('one or two characters match the start of the field, not its middle', async () => {
    const { key } = await h().account();
    const first = await makeLink(h(), key, {
      title: 'Opening hours',
      alias: 'Open-day',
      url: 'https://op.example.com/',
    });
    const inner = await makeLink(h(), key, {
      title: 'Shop opening',
      alias: 'shop-open',
      url: 'https://example.com/open',
    });
    assert.deepEqual(await idsOf(h(), key, 'search=op'), [first.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=OP&by=alias'), [first.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=o&by=alias'), [first.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=sh&by=alias'), [inner.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=op&by=url'), []);
    assert.deepEqual(await idsOf(h(), key, 'search=ht&by=url'), [inner.id, first.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=pe'), []);
    // Three characters are found anywhere.
    assert.deepEqual(await idsOf(h(), key, 'search=ope'), [inner.id, first.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=open&by=url'), [inner.id]);
    const counted = await listLinks(h(), key, 'search=op&by=title');
    assert.equal(counted.meta.total, 1);
  });

  test('by / search_by choose alias or url', async () => {
    const { key } = await h().account();
    const a = await makeLink(h(), key, { alias: 'Promo_2030', url: 'https://shop.example.com/a', title: 'promo' });
    const b = await makeLink(h(), key, { alias: 'other-one', url: 'https://PROMO.example.org/b' });
    const c = await makeLink(h(), key, { alias: 'x100pct', url: 'https://example.net/?q=100%25&r=a_b' });
    assert.deepEqual(await idsOf(h(), key, 'search=promo&by=alias'), [a.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=PROMO_&search_by=alias'), [a.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=promo&by=url'), [b.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=promo&search_by=url'), [b.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=promo&by=title'), [a.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=promo'), [a.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=a_b&by=url'), [c.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=-on&by=alias'), [b.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=OT&by=alias'), [b.id]);
    assert.deepEqual(await idsOf(h(), key, 'search=x&by=alias'), [c.id]);
    // An empty search is no search.
    assert.deepEqual(await idsOf(h(), key, 'search=&by=url'), [c.id, b.id, a.id]);
  });
});
