/** A job run now and then in the background: never twice at once, stopped (and awaited) on close. */
export interface PeriodicJob {
  stop(): Promise<void>;
}

export function startPeriodic(run: () => Promise<unknown>, options: { firstDelayMs: number; intervalMs: number; onError: (error: unknown) => void }): PeriodicJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    // Through a promise, so a job that throws before its first await is reported like any failure.
    running = Promise.resolve()
      .then(run)
      .then(() => undefined, options.onError)
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(() => {
    tick();
    interval.refresh();
  }, options.firstDelayMs);
  const interval = setInterval(tick, options.intervalMs);
  // The process may end whenever it likes: a missed run is made up by the next.
  first.unref();
  interval.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(interval);
      if (running) await running;
    },
  };
}
