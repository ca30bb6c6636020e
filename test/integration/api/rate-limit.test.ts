import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

const TOO_MANY = { message: 'Too Many Attempts.', status: 429 };

onEachEngine(
  'API rate limit',
  (h) => {
    test('headers count down, the 4th request is a 429 with Retry-After', async () => {
      const { key } = await h().account();
      for (const remaining of [2, 1, 0]) {
        const res = await h().request('GET', '/api/v1/account', { key });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-ratelimit-limit'), '3');
        assert.equal(res.headers.get('x-ratelimit-remaining'), String(remaining));
      }
      const limited = await h().request('GET', '/api/v1/account', { key, headers: { accept: 'text/html' } });
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, TOO_MANY);
      assert.match(limited.headers.get('content-type') ?? '', /^application\/json/);
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(
        Number.isInteger(retry) && retry > 0 && retry <= 60,
        `Retry-After ${limited.headers.get('retry-after')}`,
      );
      assert.equal(limited.headers.get('x-ratelimit-limit'), '3');
      assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(limited.headers.get('access-control-allow-origin'), '*');
    });

    test('a limited key stays limited for every route, writes included, and writes nothing', async () => {
      const { key } = await h().account();
      for (let i = 0; i < 3; i++) assert.equal((await h().request('GET', '/api/v1/pixels', { key })).status, 200);
      const write = await h().request('POST', '/api/v1/pixels', { key, form: { name: 'x', type: 'bing', value: 'x' } });
      assert.equal(write.status, 429);
      assert.deepEqual(write.body, TOO_MANY);
      assert.equal((await h().request('DELETE', '/pixels/1/destroy', { key })).status, 429);
    });

    test('each key has its own allowance', async () => {
      const a = await h().account();
      const b = await h().account();
      for (let i = 0; i < 3; i++)
        assert.equal((await h().request('GET', '/api/v1/account', { key: a.key })).status, 200);
      assert.equal((await h().request('GET', '/api/v1/account', { key: a.key })).status, 429);
      const other = await h().request('GET', '/api/v1/account', { key: b.key });
      assert.equal(other.status, 200);
      assert.equal(other.headers.get('x-ratelimit-remaining'), '2');
      // A second key of the same account is counted on its own too.
      const second = await h().server.container.accounts.createKey(a.email, 'second', TEST_ACTOR);
      assert.equal((await h().request('GET', '/api/v1/account', { key: second.apiKey })).status, 200);
    });

    test('requests without a valid key are limited per address, whatever key they try', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await h().request('GET', '/api/v1/account')).status);
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      // Eight different wrong keys: each used to get a bucket of its own, so guessing was never limited.
      const guesses = [];
      for (let i = 0; i < 8; i++) {
        const guess = `lpx_${String(i).repeat(43)}`;
        guesses.push((await h().request('GET', '/api/v1/account', { key: guess })).status);
      }
      assert.deepEqual(guesses, Array(8).fill(429));
      // A live key from the same address keeps its own allowance.
      const { key } = await h().account();
      assert.equal((await h().request('GET', '/api/v1/account', { key })).status, 200);
    });

    test('health, the OpenAPI document and CORS preflight are not limited', async () => {
      for (let i = 0; i < 5; i++) {
        const health = await h().request('GET', '/health');
        assert.equal(health.status, 200);
        assert.equal(health.headers.get('x-ratelimit-limit'), null);
        assert.equal((await h().request('GET', '/api/openapi.json')).status, 200);
        const pre = await h().request('OPTIONS', '/api/v1/pixels', {
          headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' },
        });
        assert.ok(pre.status < 300, String(pre.status));
      }
    });
  },
  { env: { API_RATE_LIMIT: '3' } },
);

onEachEngine(
  'API rate limit: concurrent key guessing',
  (h) => {
    test('concurrent guesses with different keys get at most the allowance of 401s', async () => {
      const guesses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h().request('GET', '/api/v1/links', { key: `lpx_${'C'.repeat(40)}${String(i).padStart(3, '0')}` }),
        ),
      );
      const statuses = guesses.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 401).length, 3, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 17, statuses.join(','));
    });
  },
  { env: { API_RATE_LIMIT: '3' } },
);

onEachEngine(
  'API rate limit off',
  (h) => {
    test('API_RATE_LIMIT=0 turns the limit off: no headers, no 429', async () => {
      const { key } = await h().account();
      for (let i = 0; i < 10; i++) {
        const res = await h().request('GET', '/api/v1/account', { key });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-ratelimit-limit'), null);
        assert.equal(res.headers.get('x-ratelimit-remaining'), null);
      }
    });
  },
  { env: { API_RATE_LIMIT: '0' } },
);
