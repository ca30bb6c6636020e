import { Worker } from 'node:worker_threads';
import type { Account } from '../../core/accounts/account.ts';
import type { CheckedRow, ImportOptions, ImportReport } from '../../core/links/import/import-row.ts';
import type { LinkImporter } from '../../core/links/import/link-importer.ts';
import { ValidationError } from '../../core/shared/errors.ts';
import type { ReaderCredit, ReaderData, ReaderMessage, ReaderStart } from './import-messages.ts';
import { IMPORT_FORMAT_NAMES } from './formats.ts';
import { threadEntry, threadExecArgv } from '../shared/thread-entry.ts';

/**
 * The last batch's turn to be written on this instance. Imports take turns, one batch at a time,
 * each on a later turn of the event loop than the one before: several imports never write their
 * batches back to back while a request waits (on SQLite a batch holds the thread while written).
 */
let lastTurn: Promise<void> = Promise.resolve();

/** Waits for this instance's next write turn; the answer gives it back. */
function writeTurn(): Promise<() => void> {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const previous = lastTurn;
  lastTurn = previous.then(() => done);
  return previous.then(() => new Promise<() => void>((resolve) => setImmediate(() => resolve(release))));
}

/** What one file's reading thread may hold: far more than any batch, far less than the process may. */
const READER_HEAP_MB = 128;
const TOO_BIG_TO_READ = `The file holds an entry too large to read (an import reads at most ${READER_HEAP_MB} MB at once); the rows before it were imported.`;

/** The report of an import: the importer's, with the format read and, for a CSV format, the columns recognised and ignored. */
export type ImportFileReport = {
  format: string;
  columns?: Record<string, string | null>;
  ignored_columns?: string[];
  warnings: string[];
} & ImportReport;

/**
 * One file's reading thread, seen from the main thread: its first message (the format, or a
 * refusal), then its rows in batches.
 */
class ReaderThread {
  private readonly worker: Worker;
  private readonly queue: ReaderMessage[] = [];
  private failure: Error | null = null;
  private waiter: (() => void) | null = null;

  constructor(data: ReaderData) {
    this.worker = new Worker(threadEntry('import-thread', import.meta.url), {
      workerData: data,
      execArgv: threadExecArgv(),
      // What the thread holds lives for one batch: a small young generation keeps it resident
      // for less (as the click writer's thread does).
      // The old generation is capped too: a JSON entry has no size bound of its own (a string or
      // a nesting that never ends), and a file must never grow the process past its bound.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    this.worker.on('message', (message: ReaderMessage) => this.push(message));
    this.worker.on('error', (error) =>
      this.fail(
        (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? ValidationError.of('file', TOO_BIG_TO_READ)
          : new Error('the import thread failed', { cause: error }),
      ),
    );
    this.worker.on('exit', (code) =>
      this.fail(new Error(`the import thread exited (code ${code}) before the end of the file`)),
    );
  }

  private push(message: ReaderMessage): void {
    this.queue.push(message);
    this.waiter?.();
    this.waiter = null;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.waiter?.();
    this.waiter = null;
  }

  private async next(): Promise<ReaderMessage> {
    for (;;) {
      const message = this.queue.shift();
      if (message) return message;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  async start(): Promise<ReaderStart> {
    const first = await this.next();
    if (first.kind === 'refused') throw ValidationError.of(first.field, first.message);
    if (first.kind !== 'start') throw new Error(`the import thread began with ${first.kind}`);
    return first;
  }

  /** The thread's batches (the importer's: one transaction each), each written in a write turn of its own (writeTurn). */
  async *batches(): AsyncGenerator<CheckedRow[]> {
    for (;;) {
      const message = await this.next();
      if (message.kind === 'end') return;
      if (message.kind !== 'rows') throw new Error(`the import thread sent ${message.kind} among its rows`);
      this.worker.postMessage({ kind: 'more' } satisfies ReaderCredit);
      const release = await writeTurn();
      try {
        yield message.rows;
      } finally {
        release();
      }
    }
  }

  async stop(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}

/** What an import holds while it runs (ImportTicket): asked before each batch, it throws once the import must stop. */
export interface ImportHold {
  hold(): Promise<void>;
}

/** The batches, each let through only while the import still holds its leases: a lost lease stops it between two batches. */
async function* whileHeld(batches: AsyncIterable<CheckedRow[]>, lease: ImportHold): AsyncGenerator<CheckedRow[]> {
  for await (const batch of batches) {
    await lease.hold();
    yield batch;
  }
}

/**
 * The whole import of one file on disk: read, parsed and checked in a thread of its own, written
 * here a batch at a time (docs/design/import-files.md), each batch only while `lease` holds
 * (docs/design/imports.md). The report carries the format's name.
 */
export async function importFile(
  importer: LinkImporter,
  account: Pick<Account, 'id' | 'timezone'>,
  path: string,
  options: ImportOptions & { format?: string | undefined; urlSchemes: readonly string[]; lease: ImportHold },
): Promise<ImportFileReport> {
  if (options.format !== undefined && !IMPORT_FORMAT_NAMES.includes(options.format)) {
    throw ValidationError.of('format', `The format must be one of: ${IMPORT_FORMAT_NAMES.join(', ')}.`);
  }
  const { format, urlSchemes, lease, ...importOptions } = options;
  const thread = new ReaderThread({
    path,
    format,
    strict: options.strict ?? false,
    timeZone: account.timezone,
    urlSchemes,
    defaultPrivacy: importer.defaultPrivacy,
  });
  try {
    const start = await thread.start();
    const report = await importer.run(account.id, whileHeld(thread.batches(), lease), importOptions);
    return {
      format: start.format,
      ...(start.columns ? { columns: start.columns } : {}),
      ...(start.ignored_columns ? { ignored_columns: start.ignored_columns } : {}),
      warnings: start.warnings,
      ...report,
    };
  } finally {
    await thread.stop();
  }
}
