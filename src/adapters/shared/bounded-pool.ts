import { Piscina } from 'piscina';
import { UnavailableError } from '../../core/shared/errors.ts';
import { threadExecArgv } from './thread-entry.ts';

// A thread left idle this long stops (piscina's idle timeout): instances that rarely need one
// do not keep its heap.
const IDLE_MS = 60_000;
// The threads yield the CPU to the event loop's thread when both want it (a lower priority
// through piscina's optional @napi-rs/nice; without it, the same priority).
const NICE = 10;

export interface BoundedPoolOptions {
  /** Where a thread starts (threadEntry). */
  entry: URL;
  /** Threads at most; each starts with the first task it is needed for. */
  threads: number;
  /** Tasks waiting for a thread at most; past it a task is refused, never queued without bound. */
  queue: number;
  /** The dependency a refused task names (UnavailableError: 503 with Retry-After). */
  dependency: string;
}

/**
 * A piscina pool started with its first task, whose threads stop when idle and run below the
 * event loop's priority, with a bounded number of tasks running or waiting: the QR render
 * threads and the image threads (docs/design/images.md).
 */
export class BoundedPool<Task, Result> {
  private pool: Piscina<Task, Result> | null = null;
  private running = 0;

  constructor(private readonly options: BoundedPoolOptions) {}

  /** The task's answer, or an UnavailableError while every thread and queue place is taken. */
  run(task: Task, name?: string): Promise<Result> {
    const { threads, queue, dependency } = this.options;
    if (this.running >= threads + queue) return Promise.reject(new UnavailableError(dependency));
    this.running++;
    return this.threads()
      .run(task, name === undefined ? {} : { name })
      .finally(() => {
        this.running--;
      });
  }

  /** Stops the threads (after the server has answered its requests). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private threads(): Piscina<Task, Result> {
    this.pool ??= new Piscina<Task, Result>({
      filename: this.options.entry.href,
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: IDLE_MS,
      niceIncrement: NICE,
      execArgv: threadExecArgv(),
    });
    return this.pool;
  }
}
