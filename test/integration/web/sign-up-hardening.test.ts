// Sign-up under abuse (issue 30, findings 8 and 9), on both engines: a race of one email is the
// 422 "taken", never a 500; sign-ups are limited per client address and per email (in Redis when
// set, shared by instances; in memory while it is away), answered with a 429 page naming when
// to try again; emails are normalised (NFC, trimmed) and refused with hidden characters on every
// way in (the web app, the profile page, the CLI; the API has no sign-up); look-alike emails are flagged in /admin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { ValidationError } from '../../../src/core/shared/errors.ts';
import { ENGINES, onEachEngine, startHarness, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient, signedUp } from '../../support/web-client.ts';
import { fieldError } from './account-support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const tag = () => randomBytes(4).toString('hex');

async function signUp(h: Harness, email: string, headers: Record<string, string> = {}) {
  const client = new WebClient(h.baseUrl);
  return client.post('/signup', { name: 'Someone', email, password: PASSWORD }, { from: '/signup', headers });
}

async function accountsWithEmail(h: Harness, email: string): Promise<number> {
  // PostgreSQL stores no NUL in text: no row can hold one.
  if (h.engine === 'postgres' && email.includes('\u0000')) return 0;
  return (await h.server.container.storage.db.selectFrom('accounts').select('id').where('email', '=', email).execute())
    .length;
}

onEachEngine(
  'sign-up: a race of one email',
  (h) => {
    test('20 concurrent web sign-ups of one email: one account, every other answer the 422 "taken", no 500', async () => {
      const email = `race-${tag()}@example.com`;
      const clients = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const client = new WebClient(h().baseUrl);
          return { client, csrf: await client.csrf('/signup') };
        }),
      );
      const replies = await Promise.all(
        clients.map(({ client, csrf }) =>
          client.post('/signup', { _csrf: csrf, name: 'Racer', email, password: PASSWORD }),
        ),
      );
      const statuses = replies.map((r) => r.status).sort();
      assert.deepEqual(statuses, [303, ...Array<number>(19).fill(422)], statuses.join(' '));
      for (const reply of replies.filter((r) => r.status === 422))
        assert.equal(fieldError(reply.text, 'email'), 'The email has already been taken.');
      assert.equal(await accountsWithEmail(h(), email), 1);
    });

    test("20 concurrent account creations of one email by the CLI's service: one made, 19 ValidationErrors naming email", async () => {
      const email = `cli-race-${tag()}@example.com`;
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => h().server.container.accounts.createAccount({ email })),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        assert.ok(r.reason instanceof ValidationError, String(r.reason));
        assert.deepEqual(r.reason.fields, { email: ['The email has already been taken.'] });
      }
      assert.equal(await accountsWithEmail(h(), email), 1);
      const keys = await h().server.container.storage.db.selectFrom('api_keys').select('id').execute();
      const accounts = await h().server.container.storage.db.selectFrom('accounts').select('id').execute();
      assert.ok(keys.length <= accounts.length, 'no key left behind by a refused creation');
    });
  },
  { overrides: { tuning: { SIGNUP_LIMIT_PER_EMAIL: 0 } } },
);

onEachEngine(
  'sign-up: limited per client address',
  (h) => {
    test('past SIGNUP_LIMIT_PER_ADDRESS tries from one address (refused ones too), a 429 page with Retry-After naming when', async () => {
      const from = { 'x-forwarded-for': '203.0.113.7' };
      assert.equal((await signUp(h(), 'not-an-email', from)).status, 422, 'a refused try counts');
      for (let i = 0; i < 2; i++) assert.equal((await signUp(h(), `addr-${i}-${tag()}@example.com`, from)).status, 303);
      const refused = await signUp(h(), `addr-late-${tag()}@example.com`, from);
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter > 3000 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
      assert.match(
        fieldError(refused.text, 'email') ?? '',
        /^Too many sign-ups from here or for this email\. Try again in (59|60) minutes\.$/,
      );
      assert.match(refused.text, /<form method="post" action="\/signup"/, 'the form again');
      // Another address is not held back by this one's.
      assert.equal(
        (await signUp(h(), `addr-other-${tag()}@example.com`, { 'x-forwarded-for': '203.0.113.8' })).status,
        303,
      );
    });
  },
  { env: { TRUST_PROXY: 'loopback' }, overrides: { tuning: { SIGNUP_LIMIT_PER_ADDRESS: 3 } } },
);

onEachEngine(
  'sign-up: limited per email, from any address',
  (h) => {
    test('past SIGNUP_LIMIT_PER_EMAIL tries of one email (spelled in any case or form), a 429 whatever the address', async () => {
      const email = `probe-${tag()}@example.com`;
      assert.equal((await signUp(h(), email, { 'x-forwarded-for': '198.51.100.1' })).status, 303);
      const taken = await signUp(h(), ` ${email.toUpperCase()} `, { 'x-forwarded-for': '198.51.100.2' });
      assert.equal(taken.status, 422);
      const limited = await signUp(h(), email, { 'x-forwarded-for': '198.51.100.3' });
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
    });
  },
  { env: { TRUST_PROXY: 'loopback' }, overrides: { tuning: { SIGNUP_LIMIT_PER_EMAIL: 2 } } },
);

for (const engine of ENGINES) {
  test(
    `sign-up limits are shared by two instances through Redis, and kept in memory while Redis is away [${engine.name}]`,
    { skip: engine.skip ?? false },
    async () => {
      const env = { REDIS_URL, REDIS_PREFIX: `signup-${tag()}:` };
      const overrides = { tuning: { SIGNUP_LIMIT_PER_ADDRESS: 2 } };
      const one = await startHarness(engine.name, { env, overrides });
      const two = await startHarness(engine.name, { env, overrides });
      try {
        assert.equal((await signUp(one, `shared-a-${tag()}@example.com`)).status, 303);
        assert.equal((await signUp(two, `shared-b-${tag()}@example.com`)).status, 303);
        assert.equal(
          (await signUp(one, `shared-c-${tag()}@example.com`)).status,
          429,
          "the second instance counted in the first one's limit",
        );
        assert.equal((await signUp(two, `shared-d-${tag()}@example.com`)).status, 429);
      } finally {
        await two.close();
        await one.close();
      }
      // Nothing listens on port 1: the limit is this instance's, in memory (docs/design/outages.md).
      const away = await startHarness(engine.name, { env: { ...env, REDIS_URL: 'redis://127.0.0.1:1' }, overrides });
      try {
        for (let i = 0; i < 2; i++) assert.equal((await signUp(away, `away-${i}-${tag()}@example.com`)).status, 303);
        assert.equal((await signUp(away, `away-late-${tag()}@example.com`)).status, 429);
      } finally {
        await away.close();
      }
    },
  );
}

onEachEngine('sign-up: emails normalised, hidden characters refused, look-alikes flagged', (h) => {
  test('NUL, zero-width, bidi and other hidden characters are a 422 naming email on the web sign-up, and nothing is written', async () => {
    const base = `hidden-${tag()}@example.com`;
    for (const hidden of ['\u0000', '\u200B', '\u200D', '\u2060', '\uFEFF', '\u202E', '\u2066', '\u00AD', '\u0007']) {
      const email = `${base.slice(0, 3)}${hidden}${base.slice(3)}`;
      const reply = await signUp(h(), email);
      assert.equal(reply.status, 422, JSON.stringify(email));
      assert.equal(
        fieldError(reply.text, 'email'),
        'The email must not contain control, invisible or direction-changing characters.',
        JSON.stringify(email),
      );
      assert.equal(await accountsWithEmail(h(), email.toLowerCase()), 0);
    }
    // Nor is a sign-in with them a 500 (PostgreSQL refuses a NUL in any text it is sent).
    for (const email of [`ali\u0000ce-${tag()}@example.com`, `ali\u200Bce-${tag()}@example.com`]) {
      const signIn = await new WebClient(h().baseUrl).post('/login', { email, password: PASSWORD }, { from: '/login' });
      assert.equal(signIn.status, 422, JSON.stringify(email));
    }
    // A trailing BOM or no-break space is trimmed, as spaces are.
    assert.equal((await signUp(h(), `\uFEFF${base}\u00A0`)).status, 303);
    assert.equal(await accountsWithEmail(h(), base), 1);
  });

  test("the profile page and the CLI's account creation refuse them too, naming email", async () => {
    const { client } = await signedUp(h().baseUrl);
    const email = `profile\u200B-${tag()}@example.com`;
    const reply = await client.post(
      '/account/profile',
      { name: 'Someone', email, timezone: 'UTC' },
      { from: '/account' },
    );
    assert.equal(reply.status, 422, reply.text.slice(0, 300));
    assert.equal(
      fieldError(reply.text, 'email'),
      'The email must not contain control, invisible or direction-changing characters.',
    );
    assert.equal(await accountsWithEmail(h(), email), 0);
    await assert.rejects(
      h().server.container.accounts.createAccount({ email: `cli\u0000-${tag()}@example.com` }),
      (e) => e instanceof ValidationError && Object.keys(e.fields).join() === 'email',
    );
  });

  test('a decomposed accent is stored composed (NFC): either spelling signs in, and the other spelling is taken', async () => {
    const id = tag();
    const decomposed = `jose\u0301-${id}@example.com`;
    const composed = `jos\u00E9-${id}@example.com`;
    assert.equal((await signUp(h(), decomposed)).status, 303);
    assert.equal(await accountsWithEmail(h(), composed), 1);
    assert.equal(await accountsWithEmail(h(), decomposed), 0);
    const taken = await signUp(h(), composed.toUpperCase());
    assert.equal(taken.status, 422);
    for (const spelling of [composed, decomposed]) {
      const signIn = await new WebClient(h().baseUrl).post(
        '/login',
        { email: spelling, password: PASSWORD },
        { from: '/login' },
      );
      assert.equal(signIn.status, 303, spelling);
    }
  });

  test('mixed-script emails are accepted and flagged in /admin with a named badge; a legacy hidden character is spelled out', async () => {
    const operator = await operatorClient(h());
    // Digits only: they belong to every script, and the list's search finds every row by them.
    const id = String(parseInt(tag(), 16));
    const cyrillicA = `\u0430lice-${id}@example.com`;
    const greekDomain = `bob-${id}@ex\u03B1mple.com`;
    const wholeScript = `\u043F\u0440\u0438\u043C\u0435\u0440-${id}@\u043F\u0440\u0438\u043C\u0435\u0440.com`;
    for (const email of [cyrillicA, greekDomain, wholeScript])
      assert.equal((await signUp(h(), email)).status, 303, email);
    // Made before hidden characters were refused: written as an older release would have (a NUL
    // on SQLite; PostgreSQL stores no NUL in text, so a zero-width space there).
    const hidden = h().engine === 'sqlite' ? '\u0000' : '\u200B';
    const shown = h().engine === 'sqlite' ? '⟨U+0000⟩' : '⟨U+200B⟩';
    const legacy = `alice-${id}@example.com${hidden}`;
    await sql`insert into accounts (name, email, timezone, created_at, is_admin) values ('legacy', ${legacy}, 'UTC', 0, 0)`.execute(
      h().server.container.storage.db,
    );

    const page = (await operator.get(`/admin/accounts?q=${id}&per_page=50`)).text;
    const rowOf = (email: string) => {
      const start = page.indexOf(`<td class="url">${email}`);
      assert.ok(start >= 0, `no row for ${JSON.stringify(email)}`);
      return page.slice(start, page.indexOf('</td>', start));
    };
    const mixedLocal = 'Look-alike: the part before @ mixes Latin and Cyrillic';
    assert.match(
      rowOf(cyrillicA),
      new RegExp(`<span class="flag" role="note" aria-label="${mixedLocal}">${mixedLocal}</span>`),
    );
    assert.match(rowOf(greekDomain), /aria-label="Look-alike: the domain mixes Latin and Greek"/);
    assert.doesNotMatch(rowOf(wholeScript), /class="flag"/, 'an address in one script is not mixed');
    assert.doesNotMatch(rowOf(`alice-${id}@example.com${shown}`), /mixes/);
    assert.match(rowOf(`alice-${id}@example.com${shown}`), /aria-label="Look-alike: hidden or control characters"/);
    assert.ok(!page.includes(hidden), 'the hidden character is not printed as it is');
  });
});

/** An operator's signed-in browser, one per harness. */
const operators = new WeakMap<Harness, Promise<WebClient>>();
function operatorClient(h: Harness): Promise<WebClient> {
  let client = operators.get(h);
  if (!client) {
    client = (async () => {
      const { client: c, email } = await signedUp(h.baseUrl);
      await h.server.container.admin.setOperator(email, true);
      return c;
    })();
    operators.set(h, client);
  }
  return client;
}
