import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobWake, Scheduler, type Job } from './scheduler.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

/** A scheduler of one job, started; failures told to `errors`. */
function runOne(job: Job, errors: string[] = []): Scheduler {
  const scheduler = new Scheduler((e, j) => errors.push(`${j.name}: ${(e as Error).message}`));
  scheduler.add(job);
  scheduler.start();
  return scheduler;
}

test('a job that fails, before or after its first await, is reported and runs again; none escapes', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const errors: string[] = [];
  let runs = 0;
  const scheduler = runOne(
    {
      name: 'failing',
      firstDelayMs: 1,
      intervalMs: 10,
      round: () => {
        runs++;
        if (runs === 1) throw new Error('thrown at once');
        return Promise.reject(new Error('rejected'));
      },
    },
    errors,
  );
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runs, 1);
  t.mock.timers.tick(10);
  await settle();
  assert.equal(runs, 2);
  await scheduler.stop();
  t.mock.timers.tick(100);
  await settle();
  assert.equal(runs, 2, 'none after stop');
  assert.deepEqual(errors, ['failing: thrown at once', 'failing: rejected']);
});

test('the first run waits for its delay even when the interval is shorter; then every interval', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let runs = 0;
  const scheduler = runOne({
    name: 'counting',
    firstDelayMs: 60,
    intervalMs: 5,
    round: async () => {
      runs++;
    },
  });
  t.mock.timers.tick(59);
  await settle();
  assert.equal(runs, 0);
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runs, 1);
  t.mock.timers.tick(5);
  await settle();
  assert.equal(runs, 2);
  await scheduler.stop();
});

test('without a first delay the first round waits an interval; a round that says there is more runs again at once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  // Three pages of work: two full rounds, then one that takes the last.
  let pages = 3;
  let runs = 0;
  const scheduler = runOne({
    name: 'pages',
    intervalMs: 100,
    round: async () => {
      runs++;
      pages--;
      return pages > 0;
    },
  });
  t.mock.timers.tick(99);
  await settle();
  assert.equal(runs, 0);
  t.mock.timers.tick(1);
  for (let i = 0; i < 3; i++) {
    await settle();
    t.mock.timers.tick(0);
  }
  await settle();
  assert.equal(runs, 3, 'again at once while a round was full, then an interval');
  t.mock.timers.tick(99);
  await settle();
  assert.equal(runs, 3);
  t.mock.timers.tick(1);
  await settle();
  assert.equal(runs, 4);
  await scheduler.stop();
});

test('a wake runs the job at once, or right after the round running; before the start and after the stop it does nothing', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const wake = new JobWake();
  let runs = 0;
  let release = () => {};
  const scheduler = new Scheduler(() => assert.fail('no round fails'));
  scheduler.add({
    name: 'woken',
    intervalMs: 60_000,
    wake,
    round: () => {
      runs++;
      return runs === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
    },
  });
  wake.now();
  t.mock.timers.tick(0);
  await settle();
  assert.equal(runs, 0, 'not started: nothing');
  scheduler.start();
  wake.now();
  t.mock.timers.tick(0);
  await settle();
  assert.equal(runs, 1, 'at once');
  wake.now();
  t.mock.timers.tick(0);
  await settle();
  assert.equal(runs, 1, 'never two rounds at once');
  release();
  await settle();
  t.mock.timers.tick(0);
  await settle();
  assert.equal(runs, 2, 'the wake during the round: one more right after it');
  await scheduler.stop();
  wake.now();
  t.mock.timers.tick(60_000);
  await settle();
  assert.equal(runs, 2, 'stopped: nothing');
});

test('stop waits for the round running and starts none after; a job added later starts with a running scheduler', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const scheduler = new Scheduler(() => assert.fail('no round fails'));
  scheduler.start();
  let release = () => {};
  let ended = false;
  let runs = 0;
  scheduler.add({
    name: 'late',
    firstDelayMs: 0,
    intervalMs: 10,
    round: async () => {
      runs++;
      await new Promise<void>((r) => (release = r));
      ended = true;
    },
  });
  t.mock.timers.tick(0);
  await settle();
  assert.equal(runs, 1, 'added to a running scheduler: started');
  let stopped = false;
  const stopping = scheduler.stop().then(() => (stopped = true));
  await settle();
  assert.equal(stopped, false, 'waits for the round');
  release();
  await stopping;
  assert.equal(ended, true);
  t.mock.timers.tick(100);
  await settle();
  assert.equal(runs, 1);
});

test("stop aborts the one signal every job's rounds are given, then waits for the rounds running", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const scheduler = new Scheduler(() => assert.fail('no round fails'));
  const signals: AbortSignal[] = [];
  let started!: () => void;
  const bothStarted = new Promise<void>((resolve) => (started = resolve));
  const round = (signal: AbortSignal) => {
    signals.push(signal);
    if (signals.length === 2) started();
    // A round that waits until it is told to stop.
    return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  };
  scheduler.add({ name: 'one', intervalMs: 60_000, firstDelayMs: 0, round });
  scheduler.add({ name: 'two', intervalMs: 60_000, firstDelayMs: 0, round });
  scheduler.start();
  t.mock.timers.tick(0);
  await bothStarted;
  assert.equal(signals[0], signals[1], 'one signal for every job');
  assert.equal(signals[0]!.aborted, false);
  await scheduler.stop();
  assert.equal(signals[0]!.aborted, true);
});
