/** A job run now and then in the background: never twice at once, stopped (and awaited) on close. */
export interface PeriodicJob {
  stop(): Promise<void>;
}

export function startPeriodic(
  run: () => Promise<unknown>,
  options: { firstDelayMs: number; intervalMs: number; onError: (error: unknown) => void },
): PeriodicJob {
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
  let interval: NodeJS.Timeout | null = null;
  // The interval starts with the first run: a job asked to wait a minute does not run sooner
  // because its interval is shorter.
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, options.intervalMs);
    interval.unref();
  }, options.firstDelayMs);
  // The process may end whenever it likes: a missed run is made up by the next.
  first.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      if (interval !== null) clearInterval(interval);
      if (running) await running;
    },
  };
}
