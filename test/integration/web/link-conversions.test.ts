// The web app's conversions (docs/web.md, docs/design/rules.md): the link form's Track conversions box,
// /links/{id}/conversions with its results, and a split ended by a winner's button, without
// JavaScript and with the CSRF token.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import type { WebClient } from '../../support/web-client.ts';
import { WebClient as Anonymous } from '../../support/web-client.ts';
import { apiAs, assertSeeOther, postWithoutCsrf, signedInWithKey } from '../../support/web-resources.ts';
import { redirectsTo } from '../redirect/redirect-support.ts';

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

  test('the statistics overview shows the period’s clicks → conversions → value per currency, per rule and variant; the conversions page prints each currency', async () => {
    const link = (
      await api('POST', '/api/v1/links', {
        url: 'https://example.com/ab',
        track_conversions: 1,
        rules: SPLIT,
        privacy: 0,
      })
    ).body.data;
    const byVariant = new Map<string, string[]>();
    for (let i = 0; i < 24; i++) {
      const to = new URL(await redirectsTo(h(), `/${link.alias}`));
      byVariant.set(to.origin, [...(byVariant.get(to.origin) ?? []), to.searchParams.get('lpx_cid')!]);
    }
    const a = byVariant.get('https://a.example') ?? [];
    const b = byVariant.get('https://b.example') ?? [];
    assert.ok(a.length >= 2 && b.length >= 1, 'both variants drawn');
    const convert = (cid: string, value: number, currency: string) =>
      api('POST', '/api/v1/conversions', { click_id: cid, name: 'sale', value, currency });
    assert.equal((await convert(a[0]!, 200, 'EUR')).status, 201);
    assert.equal((await convert(a[1]!, 49.5, 'eur')).status, 201);
    assert.equal((await convert(b[0]!, 10, 'USD')).status, 201);
    await h().server.container.visits.sink.flush();

    const page = await me.get(`/stats/${link.id}`);
    assert.equal(page.status, 200);
    const section = /<section class="stats-conversions"[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
    assert.match(section, /<h2 id="stats-conversions-title">Conversions<\/h2>/);
    assert.match(section, /data-stat="conversion-clicks">24</);
    assert.match(section, /data-stat="conversions">3</);
    assert.match(section, /<li class="value">€249\.50<\/li><li class="value">\$10\.00<\/li>/);
    assert.match(section, /<th scope="row">Rule 1: Test &lt;b&gt;<\/th><td>Variant 1<\/td>/);
    assert.match(section, /<li>sale: 2 \(€249\.50\)<\/li>/);
    assert.match(section, /<li>sale: 1 \(\$10\.00\)<\/li>/);
    // The p-value against the first variant, as the conversions page computes it.
    assert.match(
      section,
      /Variant 2<\/td><td class="num">\d+<\/td><td>[\s\S]*?<\/td><td class="num">[\d.]+%<\/td><td class="num">(?:0\.\d{3}|1\.000|&lt; 0\.001)<\/td>/,
    );
    assert.match(section, new RegExp(`href="/links/${link.id}/conversions"`));

    // A period before the clicks has none of them, nor their conversions.
    const before = await me.get(`/stats/${link.id}?from=2020-01-01&to=2020-01-31`);
    assert.equal(before.status, 200);
    assert.match(before.text, /data-stat="conversion-clicks">0</);
    assert.match(before.text, /data-stat="conversions">0</);

    const conversions = await me.get(`/links/${link.id}/conversions`);
    assert.match(conversions.text, /<li>sale: 2 \(€249\.50\)<\/li>/);
    assert.match(conversions.text, /<span title="https:\/\/a\.example\/">https:\/\/a\.example\/<\/span>/);

    // Anyone else reading the public page sees the clicks, never the conversions.
    const stranger = await new Anonymous(h().baseUrl).get(`/stats/${link.id}`);
    assert.equal(stranger.status, 200);
    assert.doesNotMatch(stranger.text, /stats-conversions/);
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
