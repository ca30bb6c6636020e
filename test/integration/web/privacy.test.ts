import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { makeLink, unique, visit } from '../redirect/redirect-support.ts';
import { PEOPLE_TABLES, VISITOR_TABLES } from '../../../src/core/privacy/data-tables.ts';

const RETENTION_DAYS = '45';

/** A signed-in browser of an account that is not the instance's operator. */
async function member(h: Harness) {
  const made = await h.account();
  await h.server.container.signIn.setPassword(made.email, PASSWORD);
  const client = new WebClient(h.baseUrl);
  const login = await client.post('/login', { email: made.email, password: PASSWORD }, { from: '/login' });
  assert.equal(login.status, 303, login.text);
  return client;
}

onEachEngine(
  'web: /privacy and /admin/data',
  (h) => {
    let op: WebClient;

    before(async () => {
      // The first account of the instance is its operator.
      op = (await signedUp(h().baseUrl)).client;
    });

    test('/privacy: public, from the description and the settings in force', async () => {
      const page = await new WebClient(h().baseUrl).get('/privacy');
      assert.equal(page.status, 200, page.text);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      for (const table of VISITOR_TABLES) {
        assert.ok(page.text.includes(`<code>${table.table}</code>`), `${table.table} told`);
        for (const column of Object.keys(table.columns))
          assert.ok(page.text.includes(`<code>${column}</code>`), `${table.table}.${column} told`);
      }
      assert.ok(page.text.includes(`deleted after ${RETENTION_DAYS} days (CLICK_RETENTION_DAYS)`));
      assert.ok(page.text.includes('deleted after 2 days'), 'the visitor hashes: two days');
      assert.match(page.text, /the IP address/);
      assert.match(page.text, /the raw User-Agent/);
      for (const cookie of ['lp_v&lt;link id&gt;', 'lp_consent', 'lp_unlock_&lt;link id&gt;'])
        assert.ok(page.text.includes(`<code>${cookie}</code>`), `${cookie} told`);
      assert.ok(page.text.includes('<code>lpx_cid</code>'));
      assert.ok(page.text.includes(`valid for ${RETENTION_DAYS} days`));
      // People's tables are the operator's page, not the visitors'.
      assert.ok(!page.text.includes('<code>sessions</code>'));
    });

    test("the app's footer and the visitor pages link to the privacy page", async () => {
      const login = await new WebClient(h().baseUrl).get('/login');
      assert.match(login.text, /<footer class="site-footer"><a href="\/privacy">Privacy<\/a><\/footer>/);
      assert.match((await op.get('/dashboard')).text, /href="\/privacy"/);
      const account = await h().account();
      const link = await makeLink(h(), account.key, { password: 'open sesame' });
      const locked = await visit(h(), `/${link.alias}`);
      assert.equal(locked.status, 200);
      // On APP_URL: a custom domain's /privacy would be an alias.
      assert.match(locked.text, /<footer><a href="http:\/\/short\.test\/privacy">Privacy<\/a><\/footer>/);
    });

    test('"privacy" is taken by the app: no link may have it as its alias', async () => {
      const account = await h().account();
      const res = await h().request('POST', '/api/v1/links', {
        key: account.key,
        form: { url: 'https://example.com/', alias: 'Privacy' },
      });
      assert.equal(res.status, 422);
      assert.ok('alias' in res.body.message);
    });

    test('/admin/data: operators only', async () => {
      const anon = await new WebClient(h().baseUrl).get('/admin/data');
      assert.equal(anon.status, 303);
      assert.equal(anon.location, `/login?next=${encodeURIComponent('/admin/data')}`);
      assert.equal((await (await member(h())).get('/admin/data')).status, 404);
    });

    test('/admin/data: every table about visits or people, its rows now and its retention', async () => {
      const account = await h().account();
      await makeLink(h(), account.key, { alias: unique('p') });
      const page = await op.get('/admin/data');
      assert.equal(page.status, 200, page.text);
      const { db } = h().server.container.storage;
      for (const table of [...VISITOR_TABLES, ...PEOPLE_TABLES]) {
        const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.table)}`.execute(
          db,
        );
        const n = Number(rows[0]?.n).toLocaleString('en');
        assert.match(
          page.text,
          new RegExp(
            `<code>${table.table}</code></th><td>[^<]+</td><td class="purpose">[^<]+</td><td class="num">${n}</td>`,
          ),
          `${table.table}: ${n} rows`,
        );
      }
      assert.ok(page.text.includes(`deleted after ${RETENTION_DAYS} days (CLICK_RETENTION_DAYS)`));
      assert.ok(page.text.includes('(AUDIT_RETENTION_DAYS)'));
      assert.match(page.text, /href="\/admin\/data" aria-current="page"/);
    });
  },
  { env: { CLICK_RETENTION_DAYS: RETENTION_DAYS } },
);
