import { setMaxListeners } from 'node:events';

/**
 * One background job: a round run every `intervalMs`, counted from the end of the round before,
 * so that rounds never overlap. The jobs of a server are listed in src/app/background-jobs.ts.
 */
export interface Job {
  /** Names the job in the log line of a round that failed. */
  name: string;
  intervalMs: number;
  /** Before the first round; the interval by default (0: at once). */
  firstDelayMs?: number;
  /**
   * One round. True: it did all it could take and more waits, so it runs again at once. `stop` is
   * aborted when the scheduler stops: a round that waits on the network or a timer ends early on it,
   * leaving what it has not done for the next round (a stop must not outlast its supervisor's grace).
   */
  round(stop: AbortSignal): Promise<boolean | void>;
  /** Wakes the job between rounds (deliveries were committed, say). */
  wake?: JobWake;
}

/**
 * Runs its job at once, or as soon as the round running ends, when something it acts on has
 * happened; does nothing while the job is not on a running scheduler (a CLI command's changes
 * are left to the servers).
 */
export class JobWake {
  private kick: (() => void) | null = null;

  now(): void {
    this.kick?.();
  }

  /** Scheduler's: the kick of the job this wakes, or null once it stops. */
  bind(kick: (() => void) | null): void {
    this.kick = kick;
  }
}

/**
 * Runs the background jobs of a thread: each on its own timer (unref'd: a job never keeps a
 * process alive), a round never overlapping the job's last, a failed round handed to `onError`
 * and the next round run as planned. stop() aborts the rounds' signal and waits for the rounds
 * running to end (the ones that honour it end early). Every background job of
 * linkpix runs on one (src/app/background-jobs.ts lists them).
 */
export class Scheduler {
  private readonly jobs: ScheduledJob[] = [];
  private state: 'idle' | 'running' | 'stopped' = 'idle';
  /** One signal for every job's rounds: aborted by stop(). */
  private readonly stopping = new AbortController();

  constructor(private readonly onError: (error: unknown, job: Job) => void) {
    // Every wait of every round listens to this one signal (a round's checks in flight, each
    // with its gate wait and pause): many listeners at once is its purpose, not a leak.
    setMaxListeners(0, this.stopping.signal);
  }

  /** Adds a job; it starts with the scheduler, or at once if the scheduler runs already. */
  add(job: Job): void {
    if (this.state === 'stopped') return;
    const scheduled = new ScheduledJob(job, this.stopping.signal, (error) => this.onError(error, job));
    this.jobs.push(scheduled);
    if (this.state === 'running') scheduled.start();
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'running';
    for (const job of this.jobs) job.start();
  }

  /** No round starts after this; the rounds running are told to end; resolves once they have. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    this.stopping.abort();
    await Promise.all(this.jobs.map((job) => job.stop()));
  }
}

class ScheduledJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Woken while a round ran: the next starts at once. */
  private again = false;
  private stopped = true;

  constructor(
    private readonly job: Job,
    private readonly stopSignal: AbortSignal,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.job.wake?.bind(() => this.kick());
    this.schedule(this.job.firstDelayMs ?? this.job.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.job.wake?.bind(null);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private run(): void {
    this.timer = null;
    if (this.stopped || this.running) return;
    this.again = false;
    // Through a promise, so a round that throws before its first await is told like any failure.
    this.running = Promise.resolve()
      .then(() => this.job.round(this.stopSignal))
      .then(
        (more) => more === true,
        (error: unknown) => {
          this.onError(error);
          return false;
        },
      )
      .then((more) => {
        this.running = null;
        if (!this.stopped) this.schedule(more || this.again ? 0 : this.job.intervalMs);
      });
  }
}
