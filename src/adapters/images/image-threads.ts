import { BoundedPool } from '../shared/bounded-pool.ts';
import { threadEntry } from '../shared/thread-entry.ts';
import type * as tasks from './image-tasks.ts';

type ImageTasks = typeof tasks;
type TaskName = keyof ImageTasks;

/** The dependency a refused read names (UnavailableError, 503): the image threads and their queue. */
export const IMAGE_THREADS = 'image reader';

/**
 * Where uploaded images are decoded (docs/design/images.md): a pool of its own beside the QR
 * render threads, so that a read never waits behind a queue of large PNGs, nor they behind it.
 * Started with the first upload; a bounded number running or waiting, stopped after a minute
 * idle, below the event loop's priority, as the render threads (shared/bounded-pool.ts).
 */
export class ImageThreads {
  private readonly pool = new BoundedPool<unknown, unknown>({
    entry: threadEntry('image-tasks', import.meta.url),
    // One thread: a read of a bounded file is short, and uploads are few beside visits and renders.
    threads: 1,
    // Reads waiting for the thread at most; past it an upload is refused, never queued without bound.
    queue: 16,
    dependency: IMAGE_THREADS,
  });

  /** The task's answer, or an UnavailableError (503 with Retry-After) while the thread and queue are taken. */
  async run<K extends TaskName>(name: K, input: Parameters<ImageTasks[K]>[0]): Promise<ReturnType<ImageTasks[K]>> {
    return (await this.pool.run(input, name)) as ReturnType<ImageTasks[K]>;
  }

  /** Stops the thread (after the server has answered its requests). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
