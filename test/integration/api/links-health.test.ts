// Destination health through the API (docs/api.md §5, §14; docs/design/health.md): the record's
// `health`, the `health` filter, POST /links/{id}/check, link.broken and link.recovered, and a
// round over two instances. The checker is a fake: the HTTP checker's own tests are test/e2e.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import type { CheckAnswer } from '../../../src/core/health/health.ts';
import { HealthChecks } from '../../../src/core/health/health-checks.ts';
import { SqlLinkHealthStore } from '../../../src/adapters/storage/stores/link-health-store.ts';
import { idsOf, makeLink } from './links-support.ts';
import { makeKey } from './workspaces-support.ts';

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());

/** What the fake checker answers, by destination; 200 for any other. */
const answers = new Map<string, CheckAnswer>();
const checker = { check: async (url: string) => answers.get(url) ?? { code: 200 } };

onEachEngine(
  'links API: destination health',
  (h) => {
    test('unknown at first; checked at once: broken with its code, filtered, told once; recovered, told once', async () => {
      const { key } = await h().account();
      const path = `/health-hook/${Date.now()}`;
      const made = await h().request('POST', '/api/v1/webhooks', {
        key,
        json: { url: receiver.url + path, events: ['link.broken', 'link.recovered'] },
      });
      assert.equal(made.status, 201, made.text);
      const gone = await makeLink(h(), key, { url: 'https://gone.example/' });
      const fine = await makeLink(h(), key, { url: 'https://fine.example/' });
      assert.deepEqual(gone.health, {
        status: 'unknown',
        code: null,
        reason: null,
        checked_at: null,
        broken_since: null,
      });
      answers.set('https://gone.example/', { code: 404 });
      const checked = await h().request('POST', `/api/v1/links/${gone.id}/check`, { key });
      assert.equal(checked.status, 200, checked.text);
      const health = checked.body.data.health;
      assert.equal(health.status, 'broken');
      assert.equal(health.code, 404);
      assert.equal(health.reason, 'status');
      assert.equal(health.checked_at, health.broken_since);
      assert.equal(
        (await h().request('POST', `/api/v1/links/${fine.id}/check`, { key })).body.data.health.status,
        'ok',
      );
      assert.deepEqual(await idsOf(h(), key, 'health=broken'), [gone.id]);
      assert.deepEqual(await idsOf(h(), key, 'health=ok'), [fine.id]);
      const third = await makeLink(h(), key, { url: 'https://third.example/' });
      assert.deepEqual(await idsOf(h(), key, 'health=unknown'), [third.id]);
      const bad = await h().request('GET', '/api/v1/links?health=sick', { key });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.message), ['health'], bad.text);
      await h().request('POST', `/api/v1/links/${gone.id}/check`, { key });
      answers.set('https://gone.example/', { code: 200 });
      await h().request('POST', `/api/v1/links/${gone.id}/check`, { key });
      await eventually('the two events', () => receiver.on(path).length === 2);
      const events = receiver.on(path).map((d) => JSON.parse(d.body));
      assert.deepEqual(
        events.map((e) => [e.type, e.data.link.id, e.data.link.health.status]),
        [
          ['link.broken', gone.id, 'broken'],
          ['link.recovered', gone.id, 'ok'],
        ],
      );
    });

    test("another workspace's link is not found", async () => {
      const { key } = await h().account();
      const other = await h().account();
      const link = await makeLink(h(), key);
      assert.equal((await h().request('POST', `/api/v1/links/${link.id}/check`, { key: other.key })).status, 404);
    });

    test('POST …/check is limited per key: 30 an hour, then a 429 with Retry-After; another key still checks', async () => {
      const person = await h().account();
      const link = await makeLink(h(), person.key, { url: 'https://often.example/' });
      const check = (key: string) => h().request('POST', `/api/v1/links/${link.id}/check`, { key });
      for (let i = 0; i < 30; i++) assert.equal((await check(person.key)).status, 200, `check ${i + 1}`);
      const refused = await check(person.key);
      assert.equal(refused.status, 429, refused.text);
      assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      const other = await makeKey(h(), person, person.id);
      assert.equal((await check(other)).status, 200, 'the limit is the key’s, not the account’s');
    });

    test('two instances in one round: each due link checked by one of them', async () => {
      const { key } = await h().account();
      const ids = new Set<number>();
      for (let i = 0; i < 5; i++) ids.add((await makeLink(h(), key, { url: `https://two${i}.example/` })).id);
      const { storage } = h().server.container;
      const seen = new Map<string, number>();
      const instance = (holder: string) =>
        new HealthChecks({
          store: new SqlLinkHealthStore(storage.db, storage.engine),
          checker: {
            check: async (url) => {
              seen.set(url, (seen.get(url) ?? 0) + 1);
              return { code: 200 };
            },
          },
          events: { changed: async () => undefined },
          clock: { now: () => Date.now() },
          policy: { okIntervalMs: 86_400_000, brokenIntervalMs: 3_600_000, retryDelayMs: () => 0, leaseMs: 60_000 },
          holder,
          pause: async () => undefined,
        });
      const [a, b] = [instance('a'), instance('b')];
      // Other tests' links are due too: rounds until none is left.
      while ((await Promise.all([a.round(1000), b.round(1000)])).some(Boolean));
      for (let i = 0; i < 5; i++) assert.equal(seen.get(`https://two${i}.example/`), 1, `two${i} checked once`);
    });
  },
  {
    env: { OUTBOUND_ALLOW_PRIVATE: 'true' },
    overrides: { healthChecker: checker, tuning: { WEBHOOK_POLL_MS: 50, HEALTH_RETRY_MS: 0 } },
  },
);
