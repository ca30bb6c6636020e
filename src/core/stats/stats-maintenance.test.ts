import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatsMaintenance } from './stats-maintenance.ts';
import type { ClickRetention, MonthFolder } from './stats-store.ts';

function maintenance() {
  const calls: string[] = [];
  const retention: ClickRetention = {
    prune: async (before, visitorsBefore) => {
      calls.push(`prune ${before} ${visitorsBefore}`);
      return { clicks: 0, visitors: 0 };
    },
  };
  const months: MonthFolder = {
    foldBefore: async (month, round) => {
      calls.push(`fold ${month} ${round.now} ${round.links} ${round.ms}`);
      return 0;
    },
  };
  const jobs = new StatsMaintenance({
    retention,
    months,
    clock: { now: () => Date.parse('2026-03-10T12:00:00Z') },
    retentionDays: 90,
  });
  return { jobs, calls };
}

test('prune: clicks before now − retention, visitor marks of days before two days ago (UTC)', async () => {
  const { jobs, calls } = maintenance();
  await jobs.prune();
  assert.deepEqual(calls, [`prune ${Date.parse('2026-03-10T12:00:00Z') - 90 * 86_400_000} 2026-03-08`]);
});

test('foldMonths: the months before the one of three days ago (UTC) are folded, a bounded round at a time', async () => {
  const { jobs, calls } = maintenance();
  await jobs.foldMonths();
  await jobs.foldMonths(50);
  const now = Date.parse('2026-03-10T12:00:00Z');
  assert.deepEqual(calls, [`fold 2026-03 ${now} 100000 250`, `fold 2026-03 ${now} 50 250`]);
});
