import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startPeriodic } from './periodic.ts';

test('a job that fails, before or after its first await, is reported and runs again; none escapes', async () => {
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
  await new Promise((r) => setTimeout(r, 60));
  await job.stop();
  assert.ok(runs >= 2, `${runs} runs`);
  assert.deepEqual(errors.slice(0, 2), ['thrown at once', 'rejected']);
});
