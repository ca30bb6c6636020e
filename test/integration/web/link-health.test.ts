// The web app's destination health (docs/design/health.md): the *Broken* badge with its reason
// and the *Broken destinations* filter on the links list, the dashboard's count, the link page's
// Destination panel and its *Check now* (a form with CSRF, no JavaScript, the limit said on the
// page). The checker is a fake: the HTTP checker's own tests are test/e2e.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { csrfOf, signedUp, type WebClient } from '../../support/web-client.ts';
import { makeLink } from '../api/links-support.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';
import type { CheckAnswer } from '../../../src/core/health/health.ts';

/** What the fake checker answers, by destination; 200 for any other. */
const answers = new Map<string, CheckAnswer>();
const checker = { check: async (url: string) => answers.get(url) ?? { code: 200 } };

/** An account signed in through the web, with an API key to arrange its links. */
async function owner(h: Harness): Promise<{ client: WebClient; key: string }> {
  const { client, email } = await signedUp(h.baseUrl);
  const made = await h.server.container.accounts.createKey(email, 'test', TEST_ACTOR);
  return { client, key: made.apiKey };
}

/** The ids of the rows the list shows. */
const rowIds = (page: string): number[] => [...page.matchAll(/name="ids\[\]" value="(\d+)"/g)].map((m) => Number(m[1]));

const unique = () => Math.random().toString(36).slice(2, 10);

onEachEngine(
  'web: destination health',
  (h) => {
    test('Check now: a form with CSRF that checks and comes back to the panel, told', async () => {
      const { client, key } = await owner(h());
      const url = `https://gone-${unique()}.example/`;
      answers.set(url, { code: 404 });
      const { id } = await makeLink(h(), key, { url });
      const page = await client.get(`/links/${id}/edit`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h2 id="destination-health-title">Destination<\/h2>/);
      assert.match(page.text, /Not checked yet/);
      assert.match(page.text, /Last checked<\/dt><dd>never/);
      assert.match(page.text, new RegExp(`<form method="post" action="/links/${id}/check"`));
      assert.equal((await client.post(`/links/${id}/check`, { _csrf: 'wrong' })).status, 403);
      const done = await client.post(`/links/${id}/check`, {}, { from: `/links/${id}/edit` });
      assert.equal(done.status, 303);
      assert.equal(done.location, `/links/${id}/edit`);
      const after = await client.get(`/links/${id}/edit`);
      assert.match(after.text, /Destination checked: Broken\./);
      assert.match(after.text, /Broken: answers 404/);
      assert.match(after.text, /Broken since<\/dt><dd><time datetime=/);
    });

    test('the list: a Broken badge with its reason, the Broken destinations filter; the dashboard counts them', async () => {
      const { client, key } = await owner(h());
      const badUrl = `https://gone-${unique()}.example/`;
      answers.set(badUrl, { reason: 'dns' });
      const bad = await makeLink(h(), key, { url: badUrl });
      const good = await makeLink(h(), key, { url: `https://fine-${unique()}.example/` });
      assert.doesNotMatch((await client.get('/dashboard')).text, /Broken destinations/);
      for (const id of [bad.id, good.id])
        assert.equal((await h().request('POST', `/api/v1/links/${id}/check`, { key })).status, 200);
      const all = await client.get('/links');
      assert.match(all.text, /Broken: name not found/);
      assert.deepEqual(rowIds(all.text).sort(), [bad.id, good.id].sort());
      const broken = await client.get('/links?health=broken');
      assert.equal(broken.status, 200);
      assert.deepEqual(rowIds(broken.text), [bad.id]);
      assert.match(broken.text, /<option value="broken" selected>Broken destinations<\/option>/);
      assert.deepEqual(rowIds((await client.get('/links?health=ok')).text), [good.id]);
      // The total is the filter's, not the account's (the counts table knows no health).
      const api = await h().request('GET', '/api/v1/links?health=broken', { key });
      assert.equal(api.body.meta.total, 1);
      const refused = await client.get('/links?health=sick');
      assert.equal(refused.status, 422);
      assert.match(refused.text, /health/);
      const dashboard = await client.get('/dashboard');
      assert.match(dashboard.text, /<a href="\/links\?health=broken">Broken destinations<\/a><\/p><p class="value">1</);
    });

    test("another workspace's link: not on the list, no panel, no check", async () => {
      const mine = await owner(h());
      const theirs = await owner(h());
      const url = `https://theirs-${unique()}.example/`;
      answers.set(url, { code: 500 });
      const link = await makeLink(h(), theirs.key, { url });
      await h().request('POST', `/api/v1/links/${link.id}/check`, { key: theirs.key });
      assert.deepEqual(rowIds((await mine.client.get('/links?health=broken')).text), []);
      assert.doesNotMatch((await mine.client.get('/dashboard')).text, /Broken destinations/);
      assert.equal((await mine.client.get(`/links/${link.id}/edit`)).status, 404);
      const csrf = csrfOf((await mine.client.get('/links')).text);
      assert.equal((await mine.client.post(`/links/${link.id}/check`, { _csrf: csrf })).status, 404);
    });

    test('Check now past the limit: said on the link page, not an error', async () => {
      const { client, key } = await owner(h());
      const { id } = await makeLink(h(), key, { url: `https://often-${unique()}.example/` });
      const csrf = csrfOf((await client.get(`/links/${id}/edit`)).text);
      let last = await client.post(`/links/${id}/check`, { _csrf: csrf });
      for (let i = 0; i < 30 && !last.headers.has('retry-after'); i++)
        last = await client.post(`/links/${id}/check`, { _csrf: csrf });
      assert.equal(last.status, 303);
      assert.ok(last.headers.has('retry-after'), 'the limit was reached');
      assert.equal(last.location, `/links/${id}/edit`);
      assert.match(
        (await client.get(`/links/${id}/edit`)).text,
        /Too many checks asked for: try again in \d+ minutes?\./,
      );
    });
  },
  {
    // No scheduled rounds: each check here is asked for.
    env: { HEALTH_CHECK_INTERVAL_HOURS: '0' },
    overrides: { healthChecker: checker, tuning: { HEALTH_RETRY_MS: 0 } },
  },
);
