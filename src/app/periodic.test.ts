import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPeriodic } from './periodic.ts';

test('a job that fails, before or after its first await, is reported and runs again; none escapes', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const errors: string[] = [];
  let runs = 0;
  const job = startPeriodic(
    () => {
      runs++;
      if (runs === 1) throw new Error('thrown at once');
      return Promise.reject(new Error('rejected'));
    },
    { firstDelayMs: 1, intervalMs: 10, onError: (e) => errors.push((e as Error).message) },
  );
  const settle = () => new Promise<void>((r) => setImmediate(r));
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runs, 1);
  t.mock.timers.tick(10);
  await settle();
  assert.equal(runs, 2);
  await job.stop();
  t.mock.timers.tick(100);
  await settle();
  assert.equal(runs, 2, 'none after stop');
  assert.deepEqual(errors, ['thrown at once', 'rejected']);
});

test('the first run waits for its delay even when the interval is shorter; then every interval', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  let runs = 0;
  const job = startPeriodic(
    async () => {
      runs++;
    },
    { firstDelayMs: 60, intervalMs: 5, onError: () => undefined },
  );
  const settle = () => new Promise<void>((r) => setImmediate(r));
  t.mock.timers.tick(59);
  await settle();
  assert.equal(runs, 0);
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runs, 1);
  t.mock.timers.tick(5);
  await settle();
  assert.equal(runs, 2);
  await job.stop();
});
