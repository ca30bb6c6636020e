import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { signedUp, WebClient } from '../../support/web-client.ts';
import { makeLink, makePixel, makeSpace, unique } from '../api/links-support.ts';
import { visit } from '../redirect/redirect-support.ts';
import { linkRow } from '../../support/link-rows.ts';
import { SEARCH_COUNT_BOUND } from '../../../src/adapters/web/features/links/link-list-query.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';
import { parse } from 'csv-parse/sync';
import { LINK_EXPORT_COLUMNS } from '../../../src/adapters/shared/csv/link-export.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Owner {
  client: WebClient;
  key: string;
  accountId: number;
}

/** An account signed in through the web, with an API key to arrange and check its links. */
async function owner(h: Harness): Promise<Owner> {
  const { client, email } = await signedUp(h.baseUrl);
  const made = await h.server.container.accounts.createKey(email, 'test', TEST_ACTOR);
  return { client, key: made.apiKey, accountId: made.account.id };
}

async function apiLink(h: Harness, key: string, id: number): Promise<Json> {
  const res = await h.request('GET', `/api/v1/links/${id}`, { key });
  if (res.status === 404) return null;
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** The ids of the rows the table shows, in order. */
const rowIds = (page: string): number[] => [...page.matchAll(/name="ids\[\]" value="(\d+)"/g)].map((m) => Number(m[1]));

const decode = (s: string) => s.replace(/&amp;/g, '&');

onEachEngine('web: the links list', (h) => {
  test('anonymous visitors are sent to sign in, the query kept', async () => {
    const anonymous = new WebClient(h().baseUrl);
    const res = await anonymous.get('/links?search=x&status=3');
    assert.equal(res.status, 303);
    assert.equal(res.location, `/login?next=${encodeURIComponent('/links?search=x&status=3')}`);
    const post = await anonymous.send('POST', '/links/bulk-action', 'action=delete&scope=matching', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(post.status, 303);
    assert.match(post.location ?? '', /^\/login\?next=/);
  });

  test('an account without links sees the empty state and a way to create one', async () => {
    const { client } = await owner(h());
    const res = await client.get('/links');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(res.text, /No links yet/);
    assert.match(res.text, /href="\/links\/new"/);
    assert.doesNotMatch(res.text, /action="\/links\/bulk-action"/);
  });

  test('each row: the short URL without its scheme and a copy button, title, destination, space, clicks, status badge, created, a menu of actions', async () => {
    const { client, key } = await owner(h());
    const space = await makeSpace(h(), key, 'Campaign A');
    const link = await makeLink(h(), key, {
      url: 'https://example.com/landing',
      title: 'Landing page',
      space: space.id,
    });
    const off = await makeLink(h(), key, { url: 'https://example.com/off', disabled: 1 });
    const res = await client.get('/links');
    assert.equal(res.status, 200);
    assert.deepEqual(rowIds(res.text), [off.id, link.id]);
    const shown = (link.short_url as string).replace(/^https?:\/\//, '');
    assert.ok(res.text.includes(`href="${link.short_url}">${shown}</a>`), 'the short URL, shown without its scheme');
    assert.ok(res.text.includes(`data-copy="${link.short_url}"`));
    assert.ok(
      res.text.includes('href="https://example.com/landing" rel="noopener noreferrer">example.com/landing</a>'),
    );
    assert.match(res.text, /<div class="link-title">Landing page<\/div>/);
    assert.match(res.text, /<span class="chip">Campaign A<\/span>/);
    assert.match(res.text, /class="badge badge-ok">Active</);
    assert.match(res.text, /class="badge badge-danger">Disabled</);
    assert.match(res.text, /<time datetime="\d{4}-\d\d-\d\dT/);
    assert.ok(res.text.includes(`<summary class="menu-button" aria-label="Actions for ${link.short_url}">`));
    for (const path of [
      `/links/${link.id}/edit`,
      `/stats/${link.id}`,
      `/links/${link.id}/qr`,
      `/links/${link.id}/delete`,
    ])
      assert.ok(res.text.includes(`href="${path}"`), path);
    assert.ok(res.text.includes(`<a class="danger" href="/links/${link.id}/delete"`), 'delete reads as destructive');
    assert.match(res.text, /data-select-all="ids\[\]"/);
    assert.match(res.text, /<fieldset class="bulk-bar" data-bulk-bar>/);
    // The filters are behind their toggle, closed when none is wrong.
    assert.match(res.text, /<details class="filters">/);
  });

  test("each row's clicks of the last 30 days: a sparkline of its daily rollups and their total", async () => {
    const { client, key } = await owner(h());
    const busy = await makeLink(h(), key, { url: 'https://example.com/busy' });
    const quiet = await makeLink(h(), key, { url: 'https://example.com/quiet' });
    const now = Date.now();
    const day = (ago: number) => new Date(now - ago * 86_400_000).toISOString().slice(0, 10);
    // Sign-up's zone is UTC unless chosen; a day is written once with two values (sums them).
    await h()
      .server.container.storage.db.insertInto('click_rollups')
      .values([
        { link_id: busy.id, dimension: 'total', day: day(0), value: '', count: 5 },
        { link_id: busy.id, dimension: 'total', day: day(29), value: '', count: 3 },
        { link_id: busy.id, dimension: 'total', day: day(30), value: '', count: 100 },
        { link_id: busy.id, dimension: 'unique', day: day(0), value: '', count: 4 },
      ])
      .execute();
    const res = await client.get('/links');
    assert.equal(res.status, 200);
    const cell = (id: number) =>
      res.text.slice(
        res.text.indexOf(`href="/stats/${id}" aria-label=`),
        res.text.indexOf('</td>', res.text.indexOf(`href="/stats/${id}" aria-label=`)),
      );
    assert.match(cell(busy.id), /aria-label="Clicks per day over the last 30 days, 8 in all"/);
    assert.match(cell(busy.id), /8 in 30 d/);
    // Oldest first: the first day (3) is below the last (5), the highest, at the top.
    const points = /points="([^"]+)"/.exec(cell(busy.id))![1]!.split(' ');
    assert.equal(points.length, 30);
    assert.equal(points[29], '64,2');
    assert.ok(Number(points[0]!.split(',')[1]) < 18 && Number(points[0]!.split(',')[1]) > 2, points[0]);
    assert.match(cell(quiet.id), /0 in 30 d/);
  });

  test('a search looks in the alias, the URL and the title unless told which; chips show the filters in force and remove them', async () => {
    const { client, key } = await owner(h());
    const space = await makeSpace(h(), key, 'Spring');
    const byAlias = await makeLink(h(), key, { alias: unique('zebra'), url: 'https://example.com/a', title: 'One' });
    // Aliases of their own: a generated one starts with "ze" about once in a thousand links.
    const byUrl = await makeLink(h(), key, {
      alias: unique('u'),
      url: 'https://zebra.example.net/b',
      title: 'Two',
      space: space.id,
    });
    const byTitle = await makeLink(h(), key, {
      alias: unique('t'),
      url: 'https://example.com/c',
      title: 'Zebra crossing',
    });
    await makeLink(h(), key, { alias: unique('o'), url: 'https://example.com/d', title: 'Other' });
    const cases: [string, number[]][] = [
      ['search=zebra', [byTitle.id, byUrl.id, byAlias.id]],
      ['search=ZEBRA&by=any', [byTitle.id, byUrl.id, byAlias.id]],
      ['search=zebra&by=title', [byTitle.id]],
      ['search=zebra&by=url', [byUrl.id]],
      // One or two characters: the start of any of the three.
      ['search=ze', [byTitle.id, byAlias.id]],
      [`search=zebra&space=${space.id}`, [byUrl.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await client.get(`/links?${query}`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(rowIds(res.text), expected, query);
    }
    const res = await client.get(`/links?search=zebra&by=title&space=${space.id}&status=1`);
    const chips = [...res.text.matchAll(/<a class="chip chip-removable" href="([^"]+)" aria-label="([^"]+)">/g)].map(
      (m) => [decode(m[1]!), m[2]],
    );
    assert.deepEqual(chips, [
      [`/links?space=${space.id}&status=1`, '“zebra” in Title, remove'],
      ['/links?search=zebra&by=title&status=1', 'Space: Spring, remove'],
      [`/links?search=zebra&by=title&space=${space.id}`, 'Status: Active, remove'],
    ]);
    // The toggle counts what it hides (the field searched, the space, the status).
    assert.match(res.text, /Filters <span class="count">3<\/span>/);
    // The API's default stays the title alone (phpShort's).
    const api = await h().request('GET', '/api/v1/links?search=zebra', { key });
    assert.deepEqual(
      api.body.data.map((l: Json) => l.id),
      [byTitle.id],
    );
  });

  test('a stored <script> comes out escaped', async () => {
    const { client, key } = await owner(h());
    await makeSpace(h(), key, '<script>alert("space")</script>');
    await makeLink(h(), key, { url: 'https://example.com/?q=<script>', title: '<script>alert(1)</script>' });
    const res = await client.get('/links');
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.text, /<script>alert/);
    assert.match(res.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(res.text, /&lt;script&gt;alert\(&quot;space&quot;\)/);
  });

  test('search and filters in the query string narrow the table; the form shows them again', async () => {
    const { client, key } = await owner(h());
    const space = await makeSpace(h(), key);
    const pixel = await makePixel(h(), key);
    const alpha = await makeLink(h(), key, { title: 'Alpha launch', alias: unique('first') });
    const beta = await makeLink(h(), key, { title: 'Beta', url: 'https://beta.example.org/x', space: space.id });
    const gamma = await makeLink(h(), key, { title: 'Gamma', pixels: [pixel.id], disabled: 1 });
    const cases: [string, number[]][] = [
      ['search=alpha', [alpha.id]],
      ['search=ALPHA&by=title', [alpha.id]],
      [`search=${alpha.alias}&by=alias`, [alpha.id]],
      ['search=beta.example.org&by=url', [beta.id]],
      [`space=${space.id}`, [beta.id]],
      [`pixel=${pixel.id}`, [gamma.id]],
      ['status=3', [gamma.id]],
      ['status=1', [beta.id, alpha.id]],
      ['sort=asc', [alpha.id, beta.id, gamma.id]],
      // A GET form sends blank fields: they filter nothing.
      ['search=&by=title&space=&domain=&pixel=&status=0&sort=desc&per_page=10', [gamma.id, beta.id, alpha.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await client.get(`/links?${query}`);
      assert.equal(res.status, 200, `${query}: ${res.text.slice(0, 300)}`);
      assert.deepEqual(rowIds(res.text), expected, query);
    }
    const shown = await client.get(`/links?search=alpha&by=alias&space=${space.id}`);
    assert.match(shown.text, /name="search" type="search" value="alpha"/);
    assert.match(shown.text, /<option value="alias" selected>/);
    assert.ok(shown.text.includes(`<option value="${space.id}" selected>`));
    assert.match(shown.text, /No links match/);
    // *Clear filters* once: in the chips row, not again under the empty list.
    const clears = (text: string) => text.split('>Clear filters</a>').length - 1;
    assert.equal(clears(shown.text), 1, 'Clear filters once, with the chips');
    // A list narrowed by its tag alone has no chips row: the empty list offers it.
    const byTag = await client.get('/links?tag=nothing-here');
    assert.match(byTag.text, /No links match/);
    assert.equal(clears(byTag.text), 1, 'Clear filters once, under the empty list');
  });

  test('a query the API would refuse is a 422 naming the parameter, with no links read', async () => {
    const { client, key } = await owner(h());
    await makeLink(h(), key);
    for (const [query, field] of [
      ['status=9', 'status'],
      ['per_page=7', 'per_page'],
      ['sort=sideways', 'sort'],
      ['space=abc', 'space'],
    ] as const) {
      const res = await client.get(`/links?${query}`);
      assert.equal(res.status, 422, query);
      assert.match(res.text, /class="error-summary"/);
      assert.ok(
        res.text.includes(`The selected ${field.replace('_', ' ')} is invalid.`) ||
          res.text.includes(`The ${field.replace('_', ' ')} field must`),
        `${query}: ${res.text}`,
      );
      assert.deepEqual(rowIds(res.text), []);
    }
  });

  test('pagination links keep the search, filters and page size', async () => {
    const { client, key } = await owner(h());
    const tag = unique('paged');
    const made: number[] = [];
    for (let i = 0; i < 12; i++) made.push((await makeLink(h(), key, { title: `${tag} ${i}` })).id);
    await makeLink(h(), key, { title: 'not in the search' });
    const first = await client.get(`/links?search=${tag}&sort=asc&per_page=10`);
    assert.deepEqual(rowIds(first.text), made.slice(0, 10));
    const next = /<a href="([^"]+)" rel="next">/.exec(first.text);
    assert.ok(next, 'a next link');
    const href = decode(next[1]!);
    const params = new URL(href, 'http://x').searchParams;
    assert.equal(params.get('search'), tag);
    assert.equal(params.get('sort'), 'asc');
    assert.equal(params.get('page'), '2');
    const second = await client.get(href);
    assert.deepEqual(rowIds(second.text), made.slice(10));
    assert.match(second.text, /rel="prev"/);
    // The bulk form carries the same query, so "all matching" and the way back agree with the table.
    assert.ok(second.text.includes(`name="filter[search]" value="${tag}"`));
    assert.ok(second.text.includes('name="filter[page]" value="2"'));
  });

  test('a search matching more links than the list counts says "or more"; without a search the count is exact', async () => {
    const { client, key, accountId } = await owner(h());
    const db = h().server.container.storage.db;
    const tag = unique('many');
    const now = Date.now();
    // SEARCH_COUNT_BOUND (link-list-query.ts) and one more, straight in SQL.
    const rows = Array.from({ length: SEARCH_COUNT_BOUND + 1 }, (_, i) =>
      linkRow(accountId, `${tag}-${i}`, {
        url: `https://example.com/${tag}/${i}`,
        title: `${tag} ${i}`,
        created_at: now,
        updated_at: now,
      }),
    );
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('links')
        .values(rows.slice(i, i + 1000))
        .execute();
    await makeLink(h(), key, { title: 'not in the search' });

    const searched = await client.get(`/links?search=${tag}&per_page=10&page=3`);
    assert.equal(searched.status, 200);
    assert.match(searched.text, /21–30 of 1,000 or more/);
    assert.match(searched.text, /Page 3</);
    assert.match(searched.text, /rel="next"/);
    assert.match(searched.text, /All links matching the search and filters \(1,000 or more\)/);
    const plain = await client.get('/links?per_page=10');
    assert.match(plain.text, /1–10 of 1,?002/);
    assert.match(plain.text, /Page 1 of 101/);
  });

  test('a page past the last one says so and links back to the first', async () => {
    const { client, key } = await owner(h());
    await makeLink(h(), key);
    const res = await client.get('/links?status=1&page=5');
    assert.equal(res.status, 200);
    assert.match(res.text, /There are no links on this page\./);
    assert.ok(res.text.includes('href="/links?status=1"'));
  });

  test('bulk disable and enable on selected links: 303 back with the query, a flash, the redirect cache dropped', async () => {
    const { client, key } = await owner(h());
    const a = await makeLink(h(), key);
    const b = await makeLink(h(), key);
    const c = await makeLink(h(), key);
    assert.equal((await visit(h(), `/${a.alias}`)).status, 302);
    assert.equal((await visit(h(), `/${a.alias}`)).status, 302); // now cached
    const res = await client.post(
      '/links/bulk-action',
      { action: 'disable', scope: 'selected', ids: [a.id, b.id], filter: { search: 'x', sort: 'asc' } },
      { from: '/links' },
    );
    assert.equal(res.status, 303, res.text);
    assert.equal(res.location, '/links?search=x&sort=asc');
    assert.equal((await apiLink(h(), key, a.id)).disabled, 1);
    assert.equal((await apiLink(h(), key, b.id)).disabled, 1);
    assert.equal((await apiLink(h(), key, c.id)).disabled, 0);
    assert.equal((await visit(h(), `/${a.alias}`)).status, 404);
    const after = await client.get(res.location);
    assert.match(after.text, /2 links disabled\./);

    const enabled = await client.post(
      '/links/bulk-action',
      { action: 'enable', scope: 'selected', ids: [a.id] },
      { from: '/links' },
    );
    assert.equal(enabled.status, 303);
    assert.equal(enabled.location, '/links');
    assert.equal((await apiLink(h(), key, a.id)).disabled, 0);
    assert.equal((await visit(h(), `/${a.alias}`)).status, 302);
  });

  test('bulk move to a space, then out of any space', async () => {
    const { client, key } = await owner(h());
    const space = await makeSpace(h(), key);
    const a = await makeLink(h(), key);
    const b = await makeLink(h(), key);
    const moved = await client.post(
      '/links/bulk-action',
      { action: 'move', space: space.id, scope: 'selected', ids: [a.id, b.id] },
      { from: '/links' },
    );
    assert.equal(moved.status, 303, moved.text);
    assert.equal((await apiLink(h(), key, a.id)).space.id, space.id);
    assert.equal((await apiLink(h(), key, b.id)).space.id, space.id);
    assert.match((await client.get('/links')).text, /2 links moved\./);
    const out = await client.post(
      '/links/bulk-action',
      { action: 'move', space: '', scope: 'selected', ids: [a.id] },
      { from: '/links' },
    );
    assert.equal(out.status, 303, out.text);
    assert.equal((await apiLink(h(), key, a.id)).space, null);
    assert.equal((await apiLink(h(), key, b.id)).space.id, space.id);
  });

  test('bulk on all matching links touches exactly those the search and filters match', async () => {
    const { client, key } = await owner(h());
    const tag = unique('match');
    const space = await makeSpace(h(), key);
    const hit1 = await makeLink(h(), key, { title: `${tag} one`, space: space.id });
    const hit2 = await makeLink(h(), key, { title: `${tag} two`, space: space.id });
    const sameTagOtherSpace = await makeLink(h(), key, { title: `${tag} three` });
    const other = await makeLink(h(), key, { title: 'unrelated', space: space.id });
    const res = await client.post(
      '/links/bulk-action',
      { action: 'disable', scope: 'matching', filter: { search: tag, space: space.id } },
      { from: `/links?search=${tag}&space=${space.id}` },
    );
    assert.equal(res.status, 303, res.text);
    assert.equal(res.location, `/links?search=${tag}&space=${space.id}`);
    for (const l of [hit1, hit2]) assert.equal((await apiLink(h(), key, l.id)).disabled, 1);
    for (const l of [sameTagOtherSpace, other]) assert.equal((await apiLink(h(), key, l.id)).disabled, 0);
    // The status filter's own links leave it as they change: every one is still reached.
    const enable = await client.post(
      '/links/bulk-action',
      { action: 'enable', scope: 'matching', filter: { status: 3 } },
      { from: '/links' },
    );
    assert.equal(enable.status, 303);
    for (const l of [hit1, hit2]) assert.equal((await apiLink(h(), key, l.id)).disabled, 0);
    assert.match((await client.get(enable.location!)).text, /2 links enabled\./);
  });

  test('delete asks first: the confirmation carries the same fields and confirm=1; nothing goes before it', async () => {
    const { client, key } = await owner(h());
    const a = await makeLink(h(), key);
    const b = await makeLink(h(), key);
    const keep = await makeLink(h(), key);
    const ask = await client.post(
      '/links/bulk-action',
      { action: 'delete', scope: 'selected', ids: [a.id, b.id], filter: { sort: 'asc' } },
      { from: '/links' },
    );
    assert.equal(ask.status, 200, ask.text);
    assert.match(ask.text, /Delete 2 links<\/button>/);
    assert.match(ask.text, /name="confirm" value="1"/);
    assert.ok(ask.text.includes(`name="ids[]" value="${a.id}"`) && ask.text.includes(`name="ids[]" value="${b.id}"`));
    assert.ok(ask.text.includes('name="filter[sort]" value="asc"'));
    assert.ok(ask.text.includes('href="/links?sort=asc"'), 'cancel goes back to the same list');
    assert.notEqual(await apiLink(h(), key, a.id), null);

    const done = await client.post(
      '/links/bulk-action',
      { action: 'delete', scope: 'selected', ids: [a.id, b.id], confirm: '1', filter: { sort: 'asc' } },
      { from: '/links' },
    );
    assert.equal(done.status, 303);
    assert.equal(done.location, '/links?sort=asc');
    assert.equal(await apiLink(h(), key, a.id), null);
    assert.equal(await apiLink(h(), key, b.id), null);
    assert.notEqual(await apiLink(h(), key, keep.id), null);
    assert.equal((await visit(h(), `/${a.alias}`)).status, 404);
    assert.match((await client.get(done.location)).text, /2 links deleted\./);
  });

  test('delete of all matching links, confirmed', async () => {
    const { client, key } = await owner(h());
    const tag = unique('gone');
    const gone = [await makeLink(h(), key, { title: tag }), await makeLink(h(), key, { title: tag })];
    const keep = await makeLink(h(), key, { title: 'kept' });
    const ask = await client.post(
      '/links/bulk-action',
      { action: 'delete', scope: 'matching', filter: { search: tag } },
      { from: '/links' },
    );
    assert.equal(ask.status, 200);
    assert.match(ask.text, /Delete all 2 links matching/);
    const done = await client.post(
      '/links/bulk-action',
      { action: 'delete', scope: 'matching', confirm: '1', filter: { search: tag } },
      { from: '/links' },
    );
    assert.equal(done.status, 303);
    for (const l of gone) assert.equal(await apiLink(h(), key, l.id), null);
    assert.notEqual(await apiLink(h(), key, keep.id), null);
  });

  test("export answers the API's CSV (its 33 columns, tags included) of the selected or of all matching links", async () => {
    const { client, key } = await owner(h());
    const space = await makeSpace(h(), key, 'Export space');
    const a = await makeLink(h(), key, {
      url: 'https://example.com/a',
      title: 'Hello, "world"',
      space: space.id,
      tags: ['news', 'spring sale'],
    });
    const b = await makeLink(h(), key, { url: 'https://example.com/b', disabled: 1 });
    const selected = await client.post(
      '/links/bulk-action',
      { action: 'export', scope: 'selected', ids: [b.id, a.id] },
      { from: '/links' },
    );
    assert.equal(selected.status, 200);
    assert.match(selected.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(selected.headers.get('content-disposition') ?? '', /attachment; filename="links\.csv"/);
    const api = await h().request('GET', `/api/v1/links/export?format=csv&search=${encodeURIComponent(a.alias)}`, {
      key,
    });
    assert.equal(api.status, 200, api.text);
    const lines = selected.text.split('\r\n');
    assert.equal(lines[0], LINK_EXPORT_COLUMNS.join(','));
    assert.equal(LINK_EXPORT_COLUMNS.length, 33);
    assert.equal(lines[0], api.text.split('\r\n')[0], "the API's header");
    const rows: Record<string, string>[] = parse(selected.text, { columns: true });
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.id, String(a.id));
    assert.equal(rows[0]!.title, 'Hello, "world"');
    assert.equal(rows[0]!.space, 'Export space');
    assert.deepEqual(JSON.parse(rows[0]!.tags!), ['news', 'spring sale']);
    assert.equal(rows[1]!.id, String(b.id));
    assert.equal(rows[1]!.disabled, '1');
    assert.equal(rows[1]!.tags, '[]');
    assert.equal(lines.length, 4);
    assert.equal(lines[3], '');

    const matching = await client.post(
      '/links/bulk-action',
      { action: 'export', scope: 'matching', filter: { status: 3 } },
      { from: '/links' },
    );
    assert.equal(matching.status, 200);
    assert.deepEqual(matching.text.split('\r\n').slice(0, -1), [lines[0], lines[2]]);
  });

  test("another account's ids in ids[] are neither touched nor counted", async () => {
    const victim = await owner(h());
    const mine = await owner(h());
    const theirs = await makeLink(h(), victim.key);
    const own = await makeLink(h(), mine.key);
    const disable = await mine.client.post(
      '/links/bulk-action',
      { action: 'disable', scope: 'selected', ids: [theirs.id, own.id] },
      { from: '/links' },
    );
    assert.equal(disable.status, 303);
    assert.equal((await apiLink(h(), victim.key, theirs.id)).disabled, 0);
    assert.equal((await apiLink(h(), mine.key, own.id)).disabled, 1);
    assert.match((await mine.client.get('/links')).text, /1 link disabled\./);

    const ask = await mine.client.post(
      '/links/bulk-action',
      { action: 'delete', scope: 'selected', ids: [theirs.id, own.id] },
      { from: '/links' },
    );
    assert.match(ask.text, /Delete 1 link<\/button>/);
    for (const action of ['delete', 'enable', 'disable', 'move']) {
      const res = await mine.client.post(
        '/links/bulk-action',
        { action, space: '', scope: 'selected', ids: [theirs.id], confirm: '1' },
        { from: '/links' },
      );
      assert.equal(res.status, 303, action);
    }
    const exported = await mine.client.post(
      '/links/bulk-action',
      { action: 'export', scope: 'selected', ids: [theirs.id] },
      { from: '/links' },
    );
    assert.equal(exported.text.split('\r\n').length, 2, 'the header only');
    const still = await apiLink(h(), victim.key, theirs.id);
    assert.notEqual(still, null);
    assert.equal(still.disabled, 0);
  });

  test('a refused bulk form is a 422 with the message next to its field, and nothing written', async () => {
    const { client, key } = await owner(h());
    const stranger = await owner(h());
    const foreignSpace = await makeSpace(h(), stranger.key);
    const link = await makeLink(h(), key);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ scope: 'selected', ids: [link.id] }, 'f-action-error', /The action field is required\./],
      [{ action: '', scope: 'selected', ids: [link.id] }, 'f-action-error', /The action field is required\./],
      [{ action: 'explode', scope: 'selected', ids: [link.id] }, 'f-action-error', /The selected action is invalid\./],
      [{ action: 'move', scope: 'selected', ids: [link.id] }, 'f-space-error', /The space field is required\./],
      [
        { action: 'move', space: foreignSpace.id, scope: 'selected', ids: [link.id] },
        'f-space-error',
        /The selected space is invalid\./,
      ],
      [{ action: 'disable', scope: 'selected' }, 'f-ids-error', /Tick at least one link/],
      [{ action: 'disable', scope: 'everything', ids: [link.id] }, 'f-scope', /The selected scope is invalid\./],
    ];
    for (const [form, errorId, message] of cases) {
      const res = await client.post('/links/bulk-action', form, { from: '/links' });
      assert.equal(res.status, 422, JSON.stringify(form));
      assert.match(res.text, /class="error-summary"/);
      assert.ok(res.text.includes(`id="${errorId}`), `${JSON.stringify(form)}: ${errorId}`);
      assert.match(res.text, message);
      assert.deepEqual(rowIds(res.text), [link.id], 'the list is shown again');
    }
    // A filter the list would refuse is never read: the list shows its defaults.
    const badFilter = await client.post(
      '/links/bulk-action',
      { action: 'disable', scope: 'matching', filter: { space: 'abc' } },
      { from: '/links' },
    );
    assert.equal(badFilter.status, 422);
    assert.match(badFilter.text, /href="#f-filter-space">The filter\.space field must be an integer\./);
    const after = await apiLink(h(), key, link.id);
    assert.equal(after.disabled, 0);
    assert.equal(after.space, null);
  });

  test('CSRF missing or wrong: 403 and nothing written', async () => {
    const { client, key } = await owner(h());
    const link = await makeLink(h(), key);
    for (const csrf of [undefined, 'wrong']) {
      const form = {
        action: 'delete',
        scope: 'selected',
        ids: [link.id],
        confirm: '1',
        ...(csrf ? { _csrf: csrf } : {}),
      };
      const res = csrf
        ? await client.post('/links/bulk-action', form)
        : await client.send('POST', '/links/bulk-action', `action=delete&scope=selected&ids[]=${link.id}&confirm=1`, {
            'content-type': 'application/x-www-form-urlencoded',
          });
      assert.equal(res.status, 403);
    }
    assert.notEqual(await apiLink(h(), key, link.id), null);
  });
});
