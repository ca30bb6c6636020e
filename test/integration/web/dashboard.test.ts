import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient } from '../../support/web-client.ts';
import { stats, visit } from '../stats/stats-support.ts';
import { apiLinks, webAccount } from '../../support/web-resources.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function fieldError(page: string, id: string): string | null {
  const match = new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(page);
  return match ? match[1]! : null;
}

/** The number on a totals card, by its label. */
function card(page: string, label: string): string | null {
  const match = new RegExp(`<p class="muted">${label}</p><p class="value"[^>]*>([^<]*)</p>`).exec(page);
  return match ? match[1]! : null;
}

/** The chart's data table: [day as shown, clicks] per row. */
function chartRows(page: string): Array<[string, string]> {
  const table = /<table class="chart-table">[\s\S]*?<\/table>/.exec(page)?.[0] ?? '';
  return [...table.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1]!, m[2]!]);
}

onEachEngine(
  'web: dashboard',
  (h) => {
    test('anonymous: 303 to the sign-in page, for the page and the form', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const page = await anonymous.get('/dashboard');
      assert.equal(page.status, 303);
      assert.equal(page.location, '/login?next=%2Fdashboard');
      const post = await anonymous.post('/dashboard/shorten', { url: 'https://a.test/' }, { from: '/login' });
      assert.equal(post.status, 303);
      assert.match(post.location ?? '', /^\/login\?next=/);
    });

    test('a new account: zero totals, 30 days of data, empty lists, the quick form', async () => {
      const { client } = await webAccount(h());
      const page = await client.get('/dashboard');
      assert.equal(page.status, 200);
      assert.equal(card(page.text, 'Links'), '0');
      assert.equal(card(page.text, 'Clicks, last 30 days'), '0');
      assert.equal(card(page.text, 'Clicks today'), '0');
      // No empty chart: a sentence until the first click.
      assert.equal(chartRows(page.text).length, 0);
      assert.doesNotMatch(page.text, /<svg [^>]*aria-labelledby="clicks-30-days-title/);
      assert.match(page.text, /<p class="empty-state">No clicks in the last 30 days\./);
      assert.match(page.text, /No links yet\./);
      assert.match(page.text, /<form method="post" action="\/dashboard\/shorten"/);
      for (const id of ['f-url', 'f-alias', 'f-domain']) assert.ok(page.text.includes(`for="${id}"`), id);
    });

    test('quick shorten: 303 to the dashboard, the flash holds the short URL, the link exists', async () => {
      const { client, key } = await webAccount(h());
      const res = await client.post(
        '/dashboard/shorten',
        { url: 'https://quick.test/', alias: 'quick-one', domain: '' },
        { from: '/dashboard' },
      );
      assert.equal(res.status, 303, res.text);
      const [link] = await apiLinks(h(), key);
      assert.equal(
        res.location,
        `/dashboard?created=${link.id}#quick-made`,
        'back to the form, the new link beside it',
      );
      assert.equal(link.url, 'https://quick.test/');
      assert.equal(link.alias, 'quick-one');
      const page = await client.get(`/dashboard?created=${link.id}`);
      // A read-only field to select without the script, with a Copy button the script shows.
      assert.match(
        page.text,
        new RegExp(
          `<input id="quick-made" class="mono" type="text" value="${link.short_url}" readonly autofocus data-focus-on-load`,
        ),
      );
      assert.ok(page.text.includes(`data-copy="${link.short_url}"`));
      const stranger = await webAccount(h());
      assert.doesNotMatch(
        (await stranger.client.get(`/dashboard?created=${link.id}`)).text,
        /id="quick-made"/,
        'another workspace’s link is not shown',
      );
      assert.equal((await client.get('/dashboard?created=abc')).status, 200);
      assert.ok(page.text.includes(`<p class="flash" role="status">Short link created: ${link.short_url}</p>`));
      assert.equal(card(page.text, 'Links'), '1');
      assert.ok(page.text.includes(`>${link.short_url}</a>`));
    });

    test('quick shorten failures: 422, the message next to the field, values kept, nothing written', async () => {
      const { client, key } = await webAccount(h());
      const other = await h().account();
      const foreignDomain = await h().request('POST', '/api/v1/domains', {
        key: other.key,
        form: { name: `x${Date.now()}.example.org` },
      });
      assert.equal(foreignDomain.status, 201, foreignDomain.text);
      const bad = await client.post(
        '/dashboard/shorten',
        { url: 'javascript:alert(1)', alias: 'bad alias' },
        { from: '/dashboard' },
      );
      assert.equal(bad.status, 422);
      assert.ok(fieldError(bad.text, 'f-url'));
      assert.ok(fieldError(bad.text, 'f-alias'));
      assert.ok(bad.text.includes('value="javascript:alert(1)"'));
      assert.ok(bad.text.includes('value="bad alias"'));
      const missing = await client.post('/dashboard/shorten', { url: '' }, { from: '/dashboard' });
      assert.equal(missing.status, 422);
      assert.equal(fieldError(missing.text, 'f-url'), 'The url field is required.');
      const domain = await client.post(
        '/dashboard/shorten',
        { url: 'https://a.test/', domain: String(foreignDomain.body.data.id) },
        { from: '/dashboard' },
      );
      assert.equal(domain.status, 422);
      assert.ok(fieldError(domain.text, 'f-domain'));
      const notNumber = await client.post(
        '/dashboard/shorten',
        { url: 'https://a.test/', domain: 'abc' },
        { from: '/dashboard' },
      );
      assert.equal(notNumber.status, 422);
      assert.ok(fieldError(notNumber.text, 'f-domain'));
      assert.deepEqual(await apiLinks(h(), key), []);
      // A taken alias.
      assert.equal(
        (await client.post('/dashboard/shorten', { url: 'https://a.test/', alias: 'mine' }, { from: '/dashboard' }))
          .status,
        303,
      );
      const taken = await client.post(
        '/dashboard/shorten',
        { url: 'https://b.test/', alias: 'mine' },
        { from: '/dashboard' },
      );
      assert.equal(taken.status, 422);
      assert.ok(fieldError(taken.text, 'f-alias'));
      assert.equal((await apiLinks(h(), key)).length, 1);
    });

    test('CSRF missing or wrong: 403 and nothing written', async () => {
      const { client, key } = await webAccount(h());
      const missing = await client.send('POST', '/dashboard/shorten', 'url=https%3A%2F%2Fa.test%2F', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(missing.status, 403);
      const wrong = await client.post('/dashboard/shorten', { url: 'https://a.test/', _csrf: 'nope' });
      assert.equal(wrong.status, 403);
      assert.deepEqual(await apiLinks(h(), key), []);
    });

    test("the totals equal the API's statistics for a link with known clicks; the lists show latest and most clicked", async () => {
      const { client, key } = await webAccount(h());
      assert.equal(
        (
          await client.post(
            '/dashboard/shorten',
            { url: 'https://clicked.test/', alias: 'clicked' },
            { from: '/dashboard' },
          )
        ).status,
        303,
      );
      assert.equal(
        (
          await client.post(
            '/dashboard/shorten',
            { url: 'https://quiet.test/', alias: 'quiet' },
            { from: '/dashboard' },
          )
        ).status,
        303,
      );
      const clicked = (await apiLinks(h(), key)).find((l) => l.alias === 'clicked');
      for (let i = 0; i < 3; i++) await visit(h(), clicked);
      await visit(h(), clicked, { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' }); // a bot: not a click in the totals
      const api = await stats(h(), key, clicked.id, { name: 'clicks', per_page: 100 });
      assert.equal(api.status, 200, api.text);
      const today = api.body.data.at(-1);
      const page = await client.get('/dashboard');
      assert.equal(card(page.text, 'Links'), '2');
      assert.equal(card(page.text, 'Clicks, last 30 days'), String(api.body.stats.total));
      assert.equal(card(page.text, 'Clicks today'), String(today.count));
      assert.equal(api.body.stats.total, 3);
      const rows = chartRows(page.text);
      assert.equal(rows.length, 30);
      assert.deepEqual(
        rows.map((r) => r[1]),
        api.body.data.map((d: Json) => String(d.count)),
      );
      assert.match(page.text, /<rect class="chart-bar"[^>]*><title>[^<]*: 3 \(Clicks\)<\/title>/);
      const top = page.text.slice(page.text.indexOf('id="top-title"'));
      assert.ok(top.includes('>http://short.test/clicked</a>'));
      assert.ok(!top.includes('>http://short.test/quiet</a>'), 'a link without clicks is not "most clicked"');
      const latest = page.text.slice(page.text.indexOf('id="latest-title"'), page.text.indexOf('id="top-title"'));
      assert.ok(latest.indexOf('short.test/quiet') < latest.indexOf('short.test/clicked'), 'newest first');
    });

    test('the first-run checklist: ticked from the workspace, gone when dismissed (for that person only)', async () => {
      const { client, key } = await webAccount(h());
      const steps = async () => {
        const page = (await client.get('/dashboard')).text;
        const list = /<ol class="first-steps-list">([\s\S]*?)<\/ol>/.exec(page)?.[1];
        if (list === undefined) return null;
        return Object.fromEntries(
          [...list.matchAll(/<li class="(step(?: done)?)" data-step="(\w+)">/g)].map((m) => [
            m[2],
            m[1] === 'step done',
          ]),
        );
      };
      // webAccount made an API key: that step is done from the start.
      assert.deepEqual(await steps(), {
        shorten: false,
        visit: false,
        live: false,
        domain: false,
        key: true,
        invite: false,
      });
      const made = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://first.test/' } });
      assert.equal(made.status, 201, made.text);
      assert.equal((await steps())?.shorten, true);
      await visit(h(), made.body.data);
      // The click is written a moment after the redirect answers.
      let after = await steps();
      for (let i = 0; i < 40 && after?.visit !== true; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await steps();
      }
      assert.equal(after?.visit, true);
      assert.equal(after?.live, true);

      const refused = await client.post('/dashboard/first-steps/dismiss', { _csrf: 'wrong' }, { from: '/dashboard' });
      assert.equal(refused.status, 403);
      assert.notEqual(await steps(), null);
      const dismissed = await client.post('/dashboard/first-steps/dismiss', {}, { from: '/dashboard' });
      assert.equal(dismissed.status, 303);
      assert.equal(dismissed.location, '/dashboard');
      assert.equal(await steps(), null);
      // Another person's dashboard keeps its own.
      const other = await webAccount(h());
      assert.match((await other.client.get('/dashboard')).text, /<section class="first-steps"/);
    });

    test('a stored <script> title comes out escaped', async () => {
      const { client, key } = await webAccount(h());
      const made = await h().request('POST', '/api/v1/links', {
        key,
        form: { url: 'https://x.test/', title: '<script>alert(1)</script>' },
      });
      assert.equal(made.status, 201);
      const page = await client.get('/dashboard');
      assert.ok(!page.text.includes('<script>alert(1)'));
      assert.ok(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);
