// The web app's History tab and Schedule a change (docs/design/history.md): the timeline, a restore
// asked then posted, a scheduled change made and cancelled, without JavaScript and with the CSRF
// token; another workspace's link is not found.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, postWithoutCsrf, signedInWithKey } from '../../support/web-resources.ts';

onEachEngine('web: link history and schedules', (h) => {
  let me: WebClient;
  let key: string;
  let otherKey: string;
  const api = apiAs(h, () => key);

  before(async () => {
    ({ me, key, otherKey } = await signedInWithKey(h()));
  });

  test('the timeline, and a restore asked, then posted', async () => {
    const link = (await api('POST', '/api/v1/links', { url: 'https://example.com/first', tags: ['launch'] })).body.data;
    await api('PUT', `/api/v1/links/${link.id}`, { url: 'https://example.com/<second>', tags: ['launch', 'q3'] });
    assert.match(
      (await me.get(`/links/${link.id}/edit`)).text,
      new RegExp(`href="/links/${link.id}/history">History<`),
    );
    const page = await me.get(`/links/${link.id}/history`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Version 2/);
    assert.match(page.text, /https:\/\/example\.com\/&lt;second&gt;/);
    assert.match(page.text, /<code>tags<\/code>: <del>launch<\/del> → <ins>launch, q3<\/ins>/, 'tags by name');
    assert.match(page.text, new RegExp(`href="/links/${link.id}/history/1/restore"`));
    const ask = await me.get(`/links/${link.id}/history/1/restore`);
    assert.equal(ask.status, 200);
    assert.match(ask.text, /Restore version 1\?/);
    assert.equal((await postWithoutCsrf(me, `/links/${link.id}/history/1/restore`, {})).status, 403);
    const done = await me.post(
      `/links/${link.id}/history/1/restore`,
      {},
      { from: `/links/${link.id}/history/1/restore` },
    );
    assertSeeOther(done, `/links/${link.id}/history`);
    const restored = (await api('GET', `/api/v1/links/${link.id}`)).body.data;
    assert.equal(restored.url, 'https://example.com/first');
    assert.deepEqual(restored.tags, ['launch']);
    assert.match((await me.get(`/links/${link.id}/history`)).text, /Restored version 1/);
    const edit = `/links/${link.id}/edit`;
    assertSeeOther(
      await me.post(edit, { url: 'https://example.com/from-web', tags: 'launch' }, { from: edit }),
      '/links',
    );
    const versions = (await api('GET', `/api/v1/links/${link.id}/history`)).body.data;
    assert.deepEqual(
      versions.slice(0, 2).map((v: { via: string; restored_from: number | null }) => [v.via, v.restored_from]),
      [
        ['web', null],
        ['restore', 1],
      ],
      'the web app is the door of its own edits and restores',
    );
  });

  test('a change scheduled, refused when wrong, listed and cancelled', async () => {
    const link = (await api('POST', '/api/v1/links', { url: 'https://example.com/sched' })).body.data;
    const path = `/links/${link.id}/schedule`;
    const form = await me.get(path);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="at_date"/);
    const bad = await me.post(path, { at_date: '2000-01-01', at_time: '10:00', url: 'nope' }, { from: path });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /id="f-at_date-error"/);
    assert.match(bad.text, /id="f-url-error"/);
    const made = await me.post(path, { at_date: '2999-01-01', at_time: '10:00', state: 'disable' }, { from: path });
    assertSeeOther(made, path);
    const listed = (await api('GET', `/api/v1/links/${link.id}/schedule`)).body.data;
    assert.deepEqual(
      listed.map((s: { status: string; changes: unknown }) => [s.status, s.changes]),
      [['pending', { disabled: 1 }]],
    );
    const cancel = await me.post(`${path}/${listed[0].id}/cancel`, {}, { from: path });
    assertSeeOther(cancel, path);
    assert.equal((await api('GET', `/api/v1/links/${link.id}/schedule`)).body.data[0].status, 'cancelled');
  });

  test("another workspace's link is not found", async () => {
    const theirs = (await api('POST', '/api/v1/links', { url: 'https://example.com/theirs' }, otherKey)).body.data;
    assert.equal((await me.get(`/links/${theirs.id}/history`)).status, 404);
    assert.equal((await me.get(`/links/${theirs.id}/schedule`)).status, 404);
    assert.equal((await me.post(`/links/${theirs.id}/history/1/restore`, {}, { from: '/links' })).status, 404);
  });
});
