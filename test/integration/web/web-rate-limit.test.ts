// Issue 30, finding 5: the web app's pages had no rate limit. WEB_RATE_LIMIT requests a window
// per signed-in account, or per client address signed out, then the app's 429 page with
// Retry-After; its assets and the visitors' redirect are never limited. With Redis, every
// instance counts into one budget.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ENGINES, onEachEngine, startHarness, type Harness } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { ASSETS } from '../../../src/adapters/web/ui/assets.ts';

const LIMIT = 10;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const env = { TRUST_PROXY: 'true' };
const overrides = { tuning: { WEB_RATE_LIMIT: LIMIT } };

/** A signed-out browser at an address of its own (TRUST_PROXY is on). */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function statuses(
  client: WebClient,
  path: string,
  n: number,
  headers: Record<string, string> = {},
): Promise<number[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await client.get(path, headers)).status);
  return out;
}

function assertTooMany(reply: { status: number; headers: Headers; text: string }): void {
  assert.equal(reply.status, 429);
  const retry = Number(reply.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${reply.headers.get('retry-after')}`);
  assert.match(reply.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(reply.text, /<h1>Too many attempts<\/h1>/);
  assert.match(reply.text, new RegExp(`Try again in ${retry} s\\.`));
}

onEachEngine(
  'web: rate limit',
  (h) => {
    let me: WebClient;
    let other: WebClient;

    before(async () => {
      me = (await signedUp(h().baseUrl)).client;
      other = (await signedUp(h().baseUrl)).client;
    });

    test(`a signed-in account gets ${LIMIT} pages a window, then the 429 page; another account its own`, async () => {
      const counted = [];
      for (let i = 0; i < LIMIT; i++) {
        const page = await me.get('/dashboard');
        assert.equal(page.status, 200);
        counted.push(Number(page.headers.get('x-ratelimit-remaining')));
      }
      assert.deepEqual(
        counted,
        Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i),
      );
      assertTooMany(await me.get('/dashboard'));
      assertTooMany(await me.get('/links'));
      // Form posts too, and they change nothing.
      const post = await me.post('/links/new', { url: 'https://example.com/late', _csrf: 'unread' });
      assert.equal(post.status, 429);
      assert.equal((await other.get('/dashboard')).status, 200);
    });

    test('signed out, each address has its own budget; an invented session cookie buys nothing', async () => {
      const anonymous = new WebClient(h().baseUrl);
      assert.deepEqual(await statuses(anonymous, '/login', LIMIT, from('203.0.113.21')), Array(LIMIT).fill(200));
      assertTooMany(await anonymous.get('/login', from('203.0.113.21')));
      assertTooMany(await anonymous.get('/signup', { ...from('203.0.113.21'), cookie: `lpx_session=${randomUUID()}` }));
      assert.equal((await anonymous.get('/login', from('203.0.113.22'))).status, 200);
    });

    test('assets, the redirect and /health are not limited', async () => {
      const { key } = await h().account();
      const link = (await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/free' } })).body
        .data as { alias: string };
      const address = from('203.0.113.23');
      const anonymous = new WebClient(h().baseUrl);
      assert.deepEqual(await statuses(anonymous, '/login', LIMIT, address), Array(LIMIT).fill(200));
      assert.equal((await anonymous.get('/login', address)).status, 429);
      for (const path of [ASSETS.css.path, ASSETS.js.path, `/${link.alias}`, '/health']) {
        const got = await statuses(anonymous, path, LIMIT + 5, address);
        assert.ok(
          got.every((s) => s === 200 || s === 302),
          `${path}: ${got.join(',')}`,
        );
      }
      // The limited account's browser too.
      assert.equal((await me.get(ASSETS.css.path)).status, 200);
    });
  },
  { env, overrides },
);

onEachEngine(
  'web: rate limit off',
  (h) => {
    test('WEB_RATE_LIMIT=0: no headers, no 429', async () => {
      const anonymous = new WebClient(h().baseUrl);
      const got = await statuses(anonymous, '/login', LIMIT * 2);
      assert.deepEqual(got, Array(LIMIT * 2).fill(200));
      assert.equal((await anonymous.get('/login')).headers.get('x-ratelimit-limit'), null);
    });
  },
  { overrides: { tuning: { WEB_RATE_LIMIT: 0 } } },
);

// Two instances on one Redis (one prefix per engine run): the budget is shared.
for (const engine of ENGINES) {
  describe(`web: rate limit shared through Redis [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    const instances: Harness[] = [];
    before(async () => {
      const shared = { ...env, REDIS_URL, REDIS_PREFIX: `webrate-${randomUUID()}:` };
      instances.push(await startHarness(engine.name, { env: shared, overrides }));
      instances.push(
        await startHarness(engine.name, {
          env: shared,
          overrides,
          ...(instances[0]!.pgSchema ? { pgSchema: instances[0]!.pgSchema } : {}),
        }),
      );
    });
    after(async () => {
      for (const h of instances.reverse()) await h.close();
    });

    test(`${LIMIT} pages over two instances, then 429 on both`, async () => {
      const [a, b] = instances.map((h) => new WebClient(h.baseUrl)) as [WebClient, WebClient];
      const address = from('203.0.113.31');
      const half = LIMIT / 2;
      assert.deepEqual(
        [...(await statuses(a, '/login', half, address)), ...(await statuses(b, '/login', half, address))],
        Array(LIMIT).fill(200),
      );
      assertTooMany(await a.get('/login', address));
      assertTooMany(await b.get('/login', address));
    });
  });
}
