// The web app's conversions (docs/web.md, docs/design/rules.md): the link form's Track conversions box,
// /links/{id}/conversions with its results, and a split ended by a winner's button, without
// JavaScript and with the CSRF token.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, postWithoutCsrf, signedInWithKey } from '../../support/web-resources.ts';

const SPLIT = [
  {
    name: 'Test <b>',
    when: {},
    split: [
      { url: 'https://a.example/', weight: 50 },
      { url: 'https://b.example/', weight: 50 },
    ],
  },
];

onEachEngine('web: link conversions', (h) => {
  let me: WebClient;
  let key: string;
  let otherKey: string;
  const api = apiAs(h, () => key);

  before(async () => {
    ({ me, key, otherKey } = await signedInWithKey(h()));
  });

  test('the link form keeps Track conversions, ticked or not, and the API reads it', async () => {
    const form = await me.get('/links/new');
    assert.match(form.text, /name="track_conversions"/);
    const reply = await me.post(
      '/links/new',
      { url: 'https://example.com/shop', track_conversions: '1' },
      { from: '/links/new' },
    );
    assert.equal(reply.status, 303, reply.text);
    const id = Number(/^\/links\/(\d+)\/edit$/.exec(reply.location ?? '')?.[1]);
    assert.equal((await api('GET', `/api/v1/links/${id}`)).body.data.track_conversions, 1);
    assert.match((await me.get(`/links/${id}/edit`)).text, /name="track_conversions"[^>]*checked/);
    const off = await me.post(`/links/${id}/edit`, { url: 'https://example.com/shop' }, { from: `/links/${id}/edit` });
    assert.equal(off.status, 303, off.text);
    assert.equal((await api('GET', `/api/v1/links/${id}`)).body.data.track_conversions, 0);
  });

  test('the results table per variant, escaped, and a winner chosen by its button', async () => {
    const link = (
      await api('POST', '/api/v1/links', { url: 'https://example.com/ab', track_conversions: 1, rules: SPLIT })
    ).body.data;
    assert.match(
      (await me.get(`/links/${link.id}/edit`)).text,
      new RegExp(`href="/links/${link.id}/conversions">Conversions<`),
    );
    assert.match(
      (await me.get(`/stats/${link.id}`)).text,
      new RegExp(`href="/links/${link.id}/conversions">Conversions<`),
    );
    const page = await me.get(`/links/${link.id}/conversions`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<caption>Results per rule and variant<\/caption>/);
    assert.match(page.text, /Rule 1: Test &lt;b&gt;/);
    assert.match(page.text, /https:\/\/b\.example\//);
    assert.match(page.text, /Choose variant 2 as the winner/);
    assert.equal(
      (await postWithoutCsrf(me, `/links/${link.id}/conversions/winner`, { rule: '0', variant: '1' })).status,
      403,
    );
    const bad = await me.post(
      `/links/${link.id}/conversions/winner`,
      { rule: '0', variant: '5' },
      { from: `/links/${link.id}/conversions` },
    );
    assert.equal(bad.status, 422);
    assert.match(bad.text, /The variant is not one of the split/);
    const chosen = await me.post(
      `/links/${link.id}/conversions/winner`,
      { rule: '0', variant: '1' },
      { from: `/links/${link.id}/conversions` },
    );
    assertSeeOther(chosen, `/links/${link.id}/conversions`);
    assert.deepEqual((await api('GET', `/api/v1/links/${link.id}`)).body.data.rules, [
      { name: 'Test <b>', when: {}, url: 'https://b.example/' },
    ]);
    const after = await me.get(`/links/${link.id}/conversions`);
    assert.match(after.text, /The split has ended/);
    assert.doesNotMatch(after.text, /as the winner/);
  });

  test("another workspace's link is not found", async () => {
    const theirs = (await api('POST', '/api/v1/links', { url: 'https://example.com/theirs' }, otherKey)).body.data;
    assert.equal((await me.get(`/links/${theirs.id}/conversions`)).status, 404);
    assert.equal(
      (await me.post(`/links/${theirs.id}/conversions/winner`, { rule: '0', variant: '0' }, { from: '/links' })).status,
      404,
    );
  });
});
