// GET /api/v1/workspaces/{id}/stats (docs/api.md, Workspace statistics): clicks per day and per
// link, tag (a link with two tags counted under both), space, UTM value, destination host and QR
// scan against other visits; 422s naming the field; another workspace's key refused; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { makeLink, makeSpace } from './links-support.ts';
import { addMember, makeKey, makeWorkspace } from './workspaces-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function visits(h: Harness, alias: string, n: number, query = ''): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await h.request('GET', `/${alias}${query}`, {
      headers: { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0' },
    });
    assert.equal(res.status, 302, res.text);
  }
}

async function stats(h: Harness, key: string, id: number, query: string): Promise<Json> {
  await h.server.container.visits.sink.flush();
  const res = await h.request('GET', `/api/v1/workspaces/${id}/stats?${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const pairs = (body: Json): Array<[string | null, number]> => body.data.map((e: Json) => [e.value, e.count]);

onEachEngine('API workspace statistics', (h) => {
  test('per day, link, tag (twice for two tags), space, UTM, host and QR against other visits', async () => {
    const owner = await h().account();
    const space = await makeSpace(h(), owner.key, 'Launch space');
    const a = await makeLink(h(), owner.key, {
      url: 'https://www.shop.example/a?utm_source=news&utm_medium=email&utm_campaign=spring',
      'tags[]': ['Launch', 'Q3'],
      space_id: space.id,
    });
    // b and c end with as many clicks: a tie is ordered by alias.
    const b = await makeLink(h(), owner.key, {
      url: 'https://blog.example/b?utm_source=x',
      'tags[]': ['Q3'],
      alias: 'stats-b',
    });
    const c = await makeLink(h(), owner.key, { url: 'https://blog.example/c', alias: 'stats-c' });
    await visits(h(), a.alias, 3);
    await visits(h(), a.alias, 2, '?qr=1');
    await visits(h(), b.alias, 2);
    await visits(h(), c.alias, 1, '?qr=1&x=1');
    // The mark is taken out before the visit's query is merged into the destination.
    const scanned = await h().request('GET', `/${c.alias}?x=1&qr=1`, {
      headers: { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0' },
    });
    assert.equal(scanned.headers.get('location'), 'https://blog.example/c?x=1');

    const days = await stats(h(), owner.key, owner.id, 'name=clicks&per_page=100');
    assert.equal(days.data.length, 30);
    assert.equal(days.stats.total, 9);
    assert.equal(days.data.at(-1).count, 9);
    assert.equal(days.stats.name, 'clicks');

    const links = await stats(h(), owner.key, owner.id, 'name=links');
    assert.deepEqual(
      links.data.map((e: Json) => [e.value, e.count, e.link_id]),
      [
        [a.alias, 5, a.id],
        [b.alias, 2, b.id],
        [c.alias, 2, c.id],
      ],
    );
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=tags')), [
      ['Q3', 7],
      ['Launch', 5],
      [null, 2],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=spaces')), [
      ['Launch space', 5],
      [null, 4],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=utm_source')), [
      ['news', 5],
      // A tie is ordered by value, "none" first, as the link statistics order theirs.
      [null, 2],
      ['x', 2],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=utm_medium')), [
      ['email', 5],
      [null, 4],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=utm_campaign')), [
      ['spring', 5],
      [null, 4],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=destinations')), [
      ['shop.example', 5],
      ['blog.example', 4],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=qr')), [
      ['link', 5],
      ['qr', 4],
    ]);

    const csv = await h().request('GET', `/api/v1/workspaces/${owner.id}/stats?name=tags&format=csv`, {
      key: owner.key,
    });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    assert.equal(csv.text.split(/\r?\n/)[0], 'value,count');
  });

  test("clicks count under the link's tags, space and URL when they were counted: a tag or URL changed later moves only later clicks", async () => {
    const owner = await h().account();
    const link = await makeLink(h(), owner.key, {
      url: 'https://www.old.example/p?utm_source=old',
      'tags[]': ['Early'],
    });
    await visits(h(), link.alias, 2);
    await h().server.container.visits.sink.flush();
    const changed = await h().request('PATCH', `/api/v1/links/${link.id}`, {
      key: owner.key,
      json: { tags: ['Early', 'Late'], url: 'https://new.example/p?utm_source=new&utm_campaign=winter' },
    });
    assert.equal(changed.status, 200, changed.text);
    await visits(h(), link.alias, 1);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=tags')), [
      ['Early', 3],
      ['Late', 1],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=utm_source')), [
      ['old', 2],
      ['new', 1],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=utm_campaign')), [
      [null, 2],
      ['winter', 1],
    ]);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=destinations')), [
      ['old.example', 2],
      ['new.example', 1],
    ]);
    // A deleted link's clicks stay in the workspace's clicks and breakdowns; the links list drops it.
    const other = await makeLink(h(), owner.key, { url: 'https://gone.example/', 'tags[]': ['Late'] });
    await visits(h(), other.alias, 4);
    await h().server.container.visits.sink.flush();
    assert.equal((await h().request('DELETE', `/api/v1/links/${other.id}`, { key: owner.key })).status, 200);
    const links = await stats(h(), owner.key, owner.id, 'name=links');
    assert.deepEqual(pairs(links), [[link.alias, 3]]);
    assert.equal(links.stats.total, 7);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=tags')), [
      ['Late', 5],
      ['Early', 3],
    ]);
  });

  test('the links list: pages, the fewest first, a search by alias, and the CSV, as a sort of every link would answer', async () => {
    const owner = await h().account();
    const clicked: Array<[string, number]> = [];
    for (let i = 0; i < 13; i++) {
      const alias = `${i === 12 ? 'xx' : 'pg'}-${String((i * 5) % 13).padStart(2, '0')}`;
      const link = await makeLink(h(), owner.key, { url: 'https://p.example/', alias });
      await visits(h(), link.alias, 1 + (i % 4));
      clicked.push([alias, 1 + (i % 4)]);
    }
    await makeLink(h(), owner.key, { url: 'https://p.example/', alias: 'pg-unclicked' });
    const byMax = [...clicked].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const byMin = [...clicked].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    const first = await stats(h(), owner.key, owner.id, 'name=links&per_page=10');
    assert.deepEqual(pairs(first), byMax.slice(0, 10));
    assert.equal(first.meta.total, 13);
    assert.deepEqual(pairs(await stats(h(), owner.key, owner.id, 'name=links&per_page=10&page=2')), byMax.slice(10));
    assert.deepEqual(
      pairs(await stats(h(), owner.key, owner.id, 'name=links&sort=min&per_page=10')),
      byMin.slice(0, 10),
    );
    const searched = await stats(h(), owner.key, owner.id, 'name=links&search=PG-&per_page=100');
    assert.deepEqual(
      pairs(searched),
      byMax.filter(([alias]) => alias.startsWith('pg-')),
    );
    const csv = await h().request('GET', `/api/v1/workspaces/${owner.id}/stats?name=links&format=csv`, {
      key: owner.key,
    });
    assert.equal(csv.text.trim().split(/\r?\n/).length, 14, csv.text);
  });

  test('bad name, from and to: 422s naming each', async () => {
    const owner = await h().account();
    for (const [query, field] of [
      ['name=country', 'name'],
      ['name=clicks&from=2026-02-30', 'from'],
      ['name=clicks&to=yesterday', 'to'],
      ['name=clicks&from=2026-03-02&to=2026-03-01', 'from'],
    ] as const) {
      const res = await h().request('GET', `/api/v1/workspaces/${owner.id}/stats?${query}`, { key: owner.key });
      assert.equal(res.status, 422, `${query}: ${res.text}`);
      assert.ok(JSON.stringify(res.body.errors ?? res.body).includes(field), `${query} names ${field}: ${res.text}`);
    }
  });

  test("another workspace's numbers: 404 to a stranger, 403 to a key without stats:read; a viewer reads them", async () => {
    const owner = await h().account();
    const team = await makeWorkspace(h(), owner);
    const teamKey = await makeKey(h(), owner, team.id);
    const link = await makeLink(h(), teamKey, { url: 'https://team.example/' });
    await visits(h(), link.alias, 2);
    const stranger = await h().account();
    const foreign = await h().request('GET', `/api/v1/workspaces/${team.id}/stats?name=clicks`, { key: stranger.key });
    assert.equal(foreign.status, 404, foreign.text);
    const linksOnly = await makeKey(h(), owner, team.id, ['links:read']);
    const scoped = await h().request('GET', `/api/v1/workspaces/${team.id}/stats?name=clicks`, { key: linksOnly });
    assert.equal(scoped.status, 403, scoped.text);
    const viewer = await h().account();
    await addMember(h(), owner, team.id, viewer, 'viewer');
    const seen = await stats(h(), viewer.key, team.id, 'name=links');
    assert.deepEqual(pairs(seen), [[link.alias, 2]]);
    // The owner's personal workspace counts none of the team's clicks.
    assert.equal((await stats(h(), owner.key, owner.id, 'name=clicks')).stats.total, 0);
  });
});
