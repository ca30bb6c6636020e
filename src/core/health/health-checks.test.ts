import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthChecks, HOUR_MS, retryDelay, type HealthPolicy } from './health-checks.ts';
import { classify } from './classify.ts';
import type { CheckAnswer, HealthEvent } from './health.ts';
import { MemoryLinkHealthStore } from '../../../test/support/fakes/health-fakes.ts';

const POLICY: HealthPolicy = {
  okIntervalMs: 24 * HOUR_MS,
  brokenIntervalMs: HOUR_MS,
  retryDelayMs: () => 1500,
  leaseMs: 60_000,
};

function setup(answers: Record<string, CheckAnswer[]>) {
  const store = new MemoryLinkHealthStore();
  const clock = { t: 1_000_000, now: () => clock.t };
  const told: Array<{ event: HealthEvent; linkId: number }> = [];
  const pauses: number[] = [];
  const asked: string[] = [];
  const checks = new HealthChecks({
    store,
    checker: {
      check: async (url) => {
        asked.push(url);
        const queue = answers[url]!;
        return queue.length > 1 ? queue.shift()! : queue[0]!;
      },
    },
    events: { changed: async (_a, event, linkId) => void told.push({ event, linkId }) },
    clock,
    policy: POLICY,
    holder: 'one',
    pause: async (ms) => void pauses.push(ms),
  });
  return { store, clock, told, pauses, asked, checks };
}

test('classify: 404, 410, 5xx and failures are broken; 2xx, 401, 403, 429 are not', () => {
  for (const code of [404, 410, 500, 503, 599])
    assert.deepEqual(classify({ code }), { broken: true, code, reason: 'status' });
  for (const code of [200, 204, 401, 403, 429, 400]) assert.deepEqual(classify({ code }), { broken: false, code });
  assert.deepEqual(classify({ reason: 'timeout' }), { broken: true, code: null, reason: 'timeout' });
});

test('a failed check is retried once after the pause; a retry that works leaves the link ok', async () => {
  const { store, told, pauses, asked, checks } = setup({ 'https://a.test/': [{ code: 503 }, { code: 200 }] });
  const id = store.addLink(1, 'https://a.test/');
  assert.equal(await checks.round(10), false);
  assert.deepEqual(pauses, [1500]);
  assert.equal(asked.length, 2);
  assert.equal((await store.healthOf(1, [id])).get(id)?.status, 'ok');
  assert.deepEqual(told, []);
});

test('link.broken once when it breaks, kept broken_since, link.recovered once when it works again', async () => {
  const answers = { 'https://b.test/': [{ code: 404 } as CheckAnswer] };
  const { store, clock, told, checks } = setup(answers);
  const id = store.addLink(1, 'https://b.test/');
  await checks.round(10);
  const first = (await store.healthOf(1, [id])).get(id)!;
  assert.deepEqual(first, { status: 'broken', code: 404, reason: 'status', checkedAt: clock.t, brokenSince: clock.t });
  const since = clock.t;
  clock.t += HOUR_MS - 1;
  await checks.round(10);
  assert.equal(told.length, 1, 'not due before the hour');
  clock.t += 1;
  await checks.round(10);
  assert.equal((await store.healthOf(1, [id])).get(id)?.brokenSince, since, 'still broken since the first check');
  assert.deepEqual(told, [{ event: 'link.broken', linkId: id }], 'told once');
  answers['https://b.test/'] = [{ code: 200 }];
  clock.t += HOUR_MS;
  await checks.round(10);
  assert.deepEqual(told.at(-1), { event: 'link.recovered', linkId: id });
  clock.t += HOUR_MS;
  await checks.round(10);
  assert.equal(told.length, 2, 'an ok link waits its interval');
  clock.t += 24 * HOUR_MS;
  await checks.round(10);
  assert.equal(told.length, 2, 'ok to ok tells nothing');
});

test('never-checked links come first; disabled links are not checked; a full round says so', async () => {
  const { store, clock, asked, checks } = setup({
    'https://c.test/': [{ code: 200 }],
    'https://d.test/': [{ code: 200 }],
  });
  const old = store.addLink(1, 'https://c.test/');
  await checks.round(10);
  clock.t += 24 * HOUR_MS;
  store.addLink(1, 'https://d.test/');
  store.addLink(1, 'https://e.test/', true);
  asked.length = 0;
  assert.equal(await checks.round(1), true);
  assert.deepEqual(asked, ['https://d.test/']);
  assert.equal(await checks.round(1), true);
  assert.deepEqual(asked, ['https://d.test/', 'https://c.test/']);
  assert.equal(await checks.round(1), false);
  assert.ok((await store.healthOf(1, [old])).get(old));
});

test('checkNow checks at once and answers the health; another account reads nothing', async () => {
  const { store, told, checks } = setup({ 'https://f.test/': [{ reason: 'dns' }] });
  const id = store.addLink(1, 'https://f.test/');
  const health = await checks.checkNow(1, { id, url: 'https://f.test/' });
  assert.equal(health.status, 'broken');
  assert.equal(health.reason, 'dns');
  assert.deepEqual(told, [{ event: 'link.broken', linkId: id }]);
  assert.equal((await store.healthOf(2, [id])).size, 0);
});

test('the retry pause is between 1 and 2 s', () => {
  assert.equal(retryDelay(1000, () => 0)(), 1000);
  assert.equal(retryDelay(1000, () => 0.999)(), 1999);
});
