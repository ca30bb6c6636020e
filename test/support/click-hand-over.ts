// Clicks handed to a click writer the way the redirect's sink hands them (ColumnarClickSink: in
// columns, each link's counters summed, with when the first was recorded), for the tests of the
// writers behind it. Nothing here is a second way in: the writers see what production sends them.
import type { Click } from '../../src/core/clicks/click.ts';
import { tallyClick } from '../../src/core/clicks/batch.ts';
import { ClickColumnsBuilder, type ClickColumns } from '../../src/adapters/clicks/sink/click-columns.ts';
import type { ColumnsWriter } from '../../src/adapters/clicks/sink/columnar-click-sink.ts';
import { columnsMessage, type BatchMessage } from '../../src/adapters/clicks/thread/worker-messages.ts';
import type { ClickMeter } from '../../src/adapters/metrics/click-meter.ts';
import { ClickWriter } from '../../src/adapters/clicks/writer/click-writer.ts';
import type { ClickWrites } from '../../src/adapters/clicks/writer/click-writes.ts';
import { eventually } from './eventually.ts';

/** Clicks as a sink has gathered them before a hand-over: the clicks, each link's human clicks and its latest rotation. */
export interface ClickBatch {
  clicks: Click[];
  counts: Map<number, number>;
  rotations: Map<number, number>;
}

/** The batch recorded clicks amount to, tallied as the sink tallies them (core/clicks/batch.ts). */
export function toBatch(entries: ReadonlyArray<{ click: Click; rotation?: number | undefined }>): ClickBatch {
  const counts = new Map<number, number>();
  const rotations = new Map<number, number>();
  for (const { click, rotation } of entries) tallyClick(counts, rotations, click, rotation);
  return { clicks: entries.map((e) => e.click), counts, rotations };
}

/** Clicks in the columns the sink builds. */
export function encodeClicks(clicks: readonly Click[]): ClickColumns {
  const builder = new ClickColumnsBuilder(Math.max(1, clicks.length));
  for (const click of clicks) builder.add(click);
  return builder.build();
}

/** The message a hand-over of `batch` is to the writer (ClickWriter.add), the first click recorded at `since`. */
export function batchMessage(batch: ClickBatch, since: number = Date.now()): BatchMessage {
  return columnsMessage(encodeClicks(batch.clicks), batch.counts, batch.rotations, since).message;
}

/** Hands `batch` to a writer (the writer thread's or the one in process), its first click recorded at `since`. */
export function handOver(
  writer: Pick<ColumnsWriter, 'writeColumns'>,
  batch: ClickBatch,
  since: number = Date.now(),
): void {
  writer.writeColumns(encodeClicks(batch.clicks), batch.counts, batch.rotations, since);
}

/**
 * Hands `batch` to a writer in this process as recorded long ago, so that its write is due at
 * once, and resolves once the writer's own due write has committed the rows (its meter counts
 * them written; a window due with them has been written too). Rollups and counters the window
 * holds back stay held: settle() writes them, as a flush does.
 */
export async function writeDue(
  writer: ColumnsWriter & { readonly meter: ClickMeter },
  batch: ClickBatch,
): Promise<void> {
  const written = writer.meter.written + batch.clicks.length;
  handOver(writer, batch, 0);
  await eventually(
    `${batch.clicks.length} clicks written by the writer's due write`,
    () => writer.meter.written >= written,
    {
      everyMs: 1,
      timeoutMs: 60_000,
    },
  );
}

/** A ClickWriter over one engine's writes, as InProcessClickWriter makes one (a second's interval, a million clicks kept at most). */
export function clickWriterOver(writes: ClickWrites, windowMs: number, onError: (error: unknown) => void): ClickWriter {
  return new ClickWriter(writes, {
    writeIntervalMs: 1000,
    windowMs,
    maxBuffered: 1_000_000,
    onError,
    onResumed: () => {},
    onWritten: () => {},
    onDropped: () => {},
  });
}

/** Hands `batch` to a ClickWriter and writes its rows now: the step its due timer runs (ClickWriter.write). */
export async function writeNow(writer: ClickWriter, batch: ClickBatch): Promise<void> {
  writer.add(batchMessage(batch));
  await writer.write();
}
