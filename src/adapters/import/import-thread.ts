/**
 * The thread of one import (docs/design/import-files.md): reads the file, parses it, maps each row and runs
 * the create rules that need no database, and hands the rows to the main thread a batch at a
 * time (the importer's batches: batchesOf), at most AHEAD batches before the main thread has taken them, so that a file of any size
 * costs the server's event loop nothing but its writes and holds a few batches in memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckedRow } from '../../core/links/import/import-row.ts';
import { batchesOf } from '../../core/links/import/link-importer.ts';
import type { ReaderCredit, ReaderData, ReaderMessage } from './import-messages.ts';
import { readImportFile } from './read-file.ts';

const AHEAD = 2;

const data = workerData as ReaderData;
const port = parentPort!;
let credit = AHEAD;
let wake: (() => void) | null = null;
port.on('message', (message: ReaderCredit) => {
  if (message.kind !== 'more') return;
  credit++;
  wake?.();
  wake = null;
});

const post = (message: ReaderMessage) => port.postMessage(message);

async function send(rows: CheckedRow[]): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  post({ kind: 'rows', rows });
}

const file = await readImportFile(data);
post(file.start);
if ('rows' in file) {
  for await (const batch of batchesOf(file.rows)) await send(batch);
  post({ kind: 'end' });
}
