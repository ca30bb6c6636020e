// Tags in the web app (issue 31): the link form's field, chips and the tag filter on /links, and /links/tags.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, fieldError, postWithoutCsrf, signedInWithKey } from '../../support/web-resources.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('web: tags', (h) => {
  let me: WebClient;
  let key: string;
  let otherKey: string;

  const api = apiAs(h, () => key);
  const tagsOf = async (k = key): Promise<Json[]> => (await api('GET', '/api/v1/tags', undefined, k)).body.data;
  const linkOf = async (id: number): Promise<Json> => (await api('GET', `/api/v1/links/${id}`)).body.data;

  before(async () => {
    ({ me, key, otherKey } = await signedInWithKey(h()));
  });

  test('the link form takes tags as names separated by commas, without JavaScript, and shows them again to edit', async () => {
    const form = await me.get('/links/new');
    assert.match(form.text, /<label for="f-tags">Tags<\/label>/);
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/tagged', tags: 'Launch, q3 ,launch' },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 303, reply.text);
    const id = Number(/^\/links\/(\d+)\/edit$/.exec(reply.location ?? '')?.[1]);
    assert.deepEqual((await linkOf(id)).tags, ['Launch', 'q3']);
    const edit = await me.get(`/links/${id}/edit`);
    assert.match(edit.text, /name="tags" type="text" value="Launch, q3"/);
    const cleared = await me.post(
      `/links/${id}/edit`,
      { url: 'https://example.com/tagged', tags: '' },
      { from: `/links/${id}/edit` },
    );
    assert.equal(cleared.status, 303, cleared.text);
    assert.deepEqual((await linkOf(id)).tags, []);
  });

  test('a bad tag is a 422 naming the field, the form kept as typed and nothing written', async () => {
    const before = (await api('GET', '/api/v1/links')).body.meta.total;
    const long = 'x'.repeat(33);
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/bad', tags: `ok, ${long}` },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 422);
    assert.match(fieldError(reply.text, 'tags') ?? '', /not be greater than 32 characters/);
    assert.match(reply.text, new RegExp(`name="tags" type="text" value="ok, ${long}"`));
    assert.match(reply.text, /name="url" type="url" value="https:\/\/example.com\/bad"/);
    assert.equal((await api('GET', '/api/v1/links')).body.meta.total, before);
  });

  test('the list shows coloured chips that filter by tag, and the filter as a chip that removes it', async () => {
    const a = (
      await api('POST', '/api/v1/links', { url: 'https://example.com/chip-a', title: 'Chip A', tags: ['<b>Bold</b>'] })
    ).body.data;
    await api('POST', '/api/v1/links', { url: 'https://example.com/chip-b', title: 'Chip B', tags: ['Other'] });
    const list = await me.get('/links');
    assert.match(
      list.text,
      /<span class="tag-chip tag-[a-z]+">&lt;b&gt;Bold&lt;\/b&gt;<\/span>/,
      'escaped, coloured by class',
    );
    assert.doesNotMatch(list.text, /\sstyle=/);
    const filtered = await me.get(`/links?tag=${encodeURIComponent('<b>bold</b>')}`);
    assert.equal(filtered.status, 200);
    assert.match(filtered.text, /Chip A/);
    assert.doesNotMatch(filtered.text, /Chip B/);
    assert.match(
      filtered.text,
      /<input type="hidden" name="tag" value="&lt;b&gt;bold&lt;\/b&gt;">/,
      'the filter form keeps it',
    );
    assert.match(filtered.text, /aria-label="Remove the tag filter &lt;b&gt;bold&lt;\/b&gt;"/);
    assert.ok(a.id > 0);
  });

  test('/links/tags lists the tags with link counts; rename and recolour with CSRF; a taken name is a 422 naming it', async () => {
    await api('POST', '/api/v1/links', { url: 'https://example.com/t', tags: ['Alpha', 'Beta'] });
    const page = await me.get('/links/tags');
    assert.equal(page.status, 200);
    const alpha = (await tagsOf()).find((t) => t.name === 'Alpha');
    const beta = (await tagsOf()).find((t) => t.name === 'Beta');
    assert.match(page.text, new RegExp(`href="/links/tags/${alpha.id}/edit"`));
    assert.match(page.text, /<a class="tag-count" href="\/links\?tag=Alpha" aria-label="1 links tagged Alpha">1<\/a>/);
    const edit = await me.get(`/links/tags/${alpha.id}/edit`);
    assert.match(
      edit.text,
      new RegExp(
        `<input type="radio" id="f-color-${alpha.color}" name="color" value="${alpha.color}" checked>|<input type="radio" id="f-color" name="color" value="${alpha.color}" checked>`,
      ),
    );
    const taken = await me.post(
      `/links/tags/${alpha.id}/edit`,
      { name: 'BETA', color: 'red' },
      { from: `/links/tags/${alpha.id}/edit` },
    );
    assert.equal(taken.status, 422);
    assert.match(fieldError(taken.text, 'name') ?? '', /already been taken/);
    assert.match(taken.text, /name="name" type="text" value="BETA"/);
    const badColour = await me.post(
      `/links/tags/${alpha.id}/edit`,
      { name: 'Alpha', color: 'beige' },
      { from: `/links/tags/${alpha.id}/edit` },
    );
    assert.equal(badColour.status, 422);
    assert.ok(fieldError(badColour.text, 'color'));
    assert.equal((await postWithoutCsrf(me, `/links/tags/${alpha.id}/edit`, { name: 'X', color: 'red' })).status, 403);
    const saved = await me.post(
      `/links/tags/${alpha.id}/edit`,
      { name: 'Alef', color: 'teal' },
      { from: `/links/tags/${alpha.id}/edit` },
    );
    assertSeeOther(saved, '/links/tags');
    const renamed = (await tagsOf()).find((t) => t.id === alpha.id);
    assert.deepEqual([renamed.name, renamed.color], ['Alef', 'teal']);
    assert.ok(beta);
  });

  test('deleting a tag asks first, then takes it off its links and keeps them', async () => {
    const link = (await api('POST', '/api/v1/links', { url: 'https://example.com/d', tags: ['Doomed', 'Kept'] })).body
      .data;
    const doomed = (await tagsOf()).find((t) => t.name === 'Doomed');
    const ask = await me.get(`/links/tags/${doomed.id}/delete`);
    assert.equal(ask.status, 200);
    assert.match(ask.text, /Delete tag Doomed\?/);
    assert.match(ask.text, /<button type="submit" class="danger">Delete tag<\/button>/);
    assertSeeOther(
      await me.post(`/links/tags/${doomed.id}/delete`, {}, { from: `/links/tags/${doomed.id}/delete` }),
      '/links/tags',
    );
    assert.deepEqual((await linkOf(link.id)).tags, ['Kept']);
  });

  test("another account's tag is a 404 on every page", async () => {
    await api('POST', '/api/v1/links', { url: 'https://example.com/x', tags: ['Theirs'] }, otherKey);
    const theirs = (await tagsOf(otherKey))[0];
    for (const path of [`/links/tags/${theirs.id}/edit`, `/links/tags/${theirs.id}/delete`])
      assert.equal((await me.get(path)).status, 404, path);
    const csrf = await me.csrf('/links/tags');
    assert.equal(
      (await me.post(`/links/tags/${theirs.id}/edit`, { _csrf: csrf, name: 'Mine', color: 'red' })).status,
      404,
    );
    assert.equal((await me.post(`/links/tags/${theirs.id}/delete`, { _csrf: csrf })).status, 404);
    assert.deepEqual(
      (await tagsOf(otherKey)).map((t) => t.name),
      ['Theirs'],
    );
  });
});
