import { Worker } from 'node:worker_threads';
import type { ClickBatch, ClickStore } from '../../core/clicks/ports.ts';
import { toMessage, type WriterReply } from './worker-messages.ts';

/**
 * Hands click batches to a writer thread with its own database connection (see
 * click-writer-worker.ts). Started on the first batch, so processes that never record a click
 * (the CLI) never start it.
 */
export class WorkerClickStore implements ClickStore {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(): void; reject(e: Error): void }>();

  constructor(private readonly databaseUrl: string) {}

  writeBatch(batch: ClickBatch): Promise<void> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(toMessage(id, batch));
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ close: true });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./click-writer-worker.mjs', import.meta.url), {
      workerData: { databaseUrl: this.databaseUrl },
      execArgv: [],
    });
    worker.on('message', (reply: WriterReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.ok) waiter.resolve();
      else waiter.reject(new Error(reply.error));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.failAll(new Error('click writer thread stopped'));
    });
    this.worker = worker;
    return worker;
  }

  /** Pending batches are retried by the sink, which keeps them until a write succeeds. */
  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

