// A round cut short by a stop (docs/design/health.md, Rounds): it ends at once, records nothing
// for the links whose check had not ended, marks nothing broken because of the abort, and leaves
// those links to the next round once their lease runs out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthChecks, HOUR_MS, type HealthPolicy } from './health-checks.ts';
import type { CheckAnswer, HealthEvent } from './health.ts';
import type { DestinationChecker } from './ports.ts';
import { MemoryLinkHealthStore } from '../../../test/support/fakes/health-fakes.ts';

const POLICY: HealthPolicy = {
  okIntervalMs: 24 * HOUR_MS,
  brokenIntervalMs: HOUR_MS,
  retryDelayMs: () => 1500,
  leaseMs: 60_000,
};
/** Far less than any check or pause of a real round. */
const PROMPT_MS = 200;

function setup(checker: DestinationChecker, pause: PauseFn) {
  const store = new MemoryLinkHealthStore();
  const clock = { t: 1_000_000, now: () => clock.t };
  const told: HealthEvent[] = [];
  const checks = new HealthChecks({
    store,
    checker,
    events: { changed: async (_a, event) => void told.push(event) },
    clock,
    policy: POLICY,
    holder: 'one',
    pause,
  });
  return { store, clock, told, checks };
}

type PauseFn = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A pause as the container's: it ends with the signal. */
const abortablePause: PauseFn = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

test('a stop ends a round whose checker hangs (ignoring the signal) at once; only the checks that ended are recorded', async () => {
  const asked: string[] = [];
  let answered!: () => void;
  const oneAnswered = new Promise<void>((resolve) => (answered = resolve));
  const checker: DestinationChecker = {
    check: (url) => {
      asked.push(url);
      if (url === 'https://quick.test/') {
        queueMicrotask(answered);
        return Promise.resolve({ code: 200 });
      }
      return new Promise<CheckAnswer>(() => undefined);
    },
  };
  const { store, clock, told, checks } = setup(checker, abortablePause);
  const quick = store.addLink(1, 'https://quick.test/');
  const hung = [store.addLink(1, 'https://hung.test/a'), store.addLink(1, 'https://hung.test/b')];
  const stop = new AbortController();
  const round = timed(checks.round(50, stop.signal));
  await oneAnswered;
  await new Promise((resolve) => setImmediate(resolve));
  stop.abort();
  const { value: more, ms } = await round;
  assert.ok(ms < PROMPT_MS + 50, `the round ended ${ms} ms after its start`);
  assert.equal(more, false, 'a stopped round asks for no other');
  assert.equal((await store.healthOf(1, [quick])).get(quick)?.status, 'ok');
  assert.deepEqual([...(await store.healthOf(1, hung)).keys()], [], 'the unchecked links are left unchecked');
  assert.deepEqual(told, []);
  assert.equal(asked.length, 3);
  assert.deepEqual(await store.claimDue('other', clock.t, clock.t + 1, 50), [], 'still leased meanwhile');
  clock.t += POLICY.leaseMs + 1;
  const again = await store.claimDue('other', clock.t, clock.t + POLICY.leaseMs, 50);
  assert.deepEqual(
    again.map((l) => l.linkId),
    hung,
    'the next round after the lease takes them',
  );
});

test('a check the abort makes fail, and a retry pause under way, record nothing broken', async () => {
  const checker: DestinationChecker = {
    // As the HTTP checker does: a request aborted answers a failure.
    check: (url, signal) =>
      url === 'https://down.test/'
        ? Promise.resolve({ code: 503 })
        : new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ reason: 'timeout' }))),
  };
  const { store, told, checks } = setup(checker, abortablePause);
  const down = store.addLink(1, 'https://down.test/');
  const slow = store.addLink(1, 'https://slow.test/');
  const stop = new AbortController();
  const round = timed(checks.round(50, stop.signal));
  await new Promise((resolve) => setTimeout(resolve, 20));
  stop.abort();
  const { ms } = await round;
  assert.ok(ms < PROMPT_MS, `the round ended ${ms} ms after its start, not after the 1.5 s retry pause`);
  assert.deepEqual([...(await store.healthOf(1, [down, slow])).keys()], [], 'neither is recorded');
  assert.deepEqual(told, [], 'no link.broken');
});

test('a round asked after the stop claims nothing', async () => {
  const { store, checks } = setup({ check: async () => ({ code: 200 }) }, abortablePause);
  const id = store.addLink(1, 'https://a.test/');
  const stop = new AbortController();
  stop.abort();
  assert.equal(await checks.round(50, stop.signal), false);
  assert.equal((await store.claimDue('other', 2_000_000, 3_000_000, 50))[0]?.linkId, id);
});
