import { Piscina } from 'piscina';
import { UnavailableError } from '../../core/shared/errors.ts';
import { threadEntry, threadExecArgv } from '../shared/thread-entry.ts';
import type * as tasks from './image-tasks.ts';

type ImageTasks = typeof tasks;
type TaskName = keyof ImageTasks;

/** The dependency a refused read names (UnavailableError, 503): the image threads and their queue. */
export const IMAGE_THREADS = 'image reader';

const ENTRY = threadEntry('image-tasks', import.meta.url);
// One thread: a read of a bounded file is short, and uploads are few beside visits and renders.
const THREADS = 1;
// Reads waiting for the thread at most; past it an upload is refused, never queued without bound.
const QUEUE = 16;
// As the QR render threads (qr-renderer.ts): stopped after a minute idle, below the event loop's priority.
const IDLE_MS = 60_000;
const NICE = 10;

/**
 * Where uploaded images are decoded (docs/design/images.md): a pool of its own beside the QR
 * render threads, so that a read never waits behind a queue of large PNGs, nor they behind it.
 * Started with the first upload; a bounded number running or waiting.
 */
export class ImageThreads {
  private pool: Piscina | null = null;
  private running = 0;

  /** The task's answer, or an UnavailableError (503 with Retry-After) while the thread and queue are taken. */
  async run<K extends TaskName>(name: K, input: Parameters<ImageTasks[K]>[0]): Promise<ReturnType<ImageTasks[K]>> {
    if (this.running >= THREADS + QUEUE) throw new UnavailableError(IMAGE_THREADS);
    this.running++;
    try {
      return (await this.threads().run(input, { name })) as ReturnType<ImageTasks[K]>;
    } finally {
      this.running--;
    }
  }

  /** Stops the thread (after the server has answered its requests). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private threads(): Piscina {
    this.pool ??= new Piscina({
      filename: ENTRY.href,
      minThreads: 0,
      maxThreads: THREADS,
      idleTimeout: IDLE_MS,
      niceIncrement: NICE,
      execArgv: threadExecArgv(),
    });
    return this.pool;
  }
}
