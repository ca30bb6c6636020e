import type { ClickBatch } from '../../core/clicks/ports.ts';
import type { Click } from '../../core/clicks/click.ts';
import { LinkTotals } from '../../core/clicks/link-totals.ts';
import { ClickColumnsView, encodeClicks, transferablesOf, type ClickColumns } from './click-columns.ts';

/** A batch as it crosses to the writer thread (clicks in columns, Maps as entry lists); not answered. */
export interface BatchMessage {
  kind: 'batch';
  clicks: ClickColumns;
  counts: Array<[number, number]>;
  rotations: Array<[number, number]>;
}

/** Write what the thread holds back (the rollup window), then answer. */
export interface SettleMessage {
  kind: 'settle';
  id: number;
}

/** Settle, close the connection and end the thread. */
export interface CloseMessage {
  kind: 'close';
}

export type WriterMessage = BatchMessage | SettleMessage | CloseMessage;

export type WriterReply = { id: number; ok: true } | { id: number; ok: false; error: string };

export interface WriterData {
  databaseUrl: string;
  /** How often the clicks handed over are written, in one transaction. */
  writeIntervalMs: number;
  /** How often the window (rollups and link counters) is written (0: with every batch). */
  rollupIntervalMs: number;
}

/** The message, and the buffers postMessage should move rather than copy. */
export function toMessage(batch: ClickBatch): { message: BatchMessage; transfer: ArrayBuffer[] } {
  return columnsMessage(encodeClicks(batch.clicks), batch.counts, batch.rotations);
}

/** The same, for clicks already in columns (ColumnarClickSink). */
export function columnsMessage(
  clicks: ClickColumns, counts: ReadonlyMap<number, number>, rotations: ReadonlyMap<number, number>,
): { message: BatchMessage; transfer: ArrayBuffer[] } {
  return { message: { kind: 'batch', clicks, counts: [...counts], rotations: [...rotations] }, transfer: transferablesOf(clicks) };
}

/** A batch the writer thread writes: its clicks read in place (ClickColumnsView), never kept. */
export interface WriterBatch {
  clicks: Iterable<Click>;
  /** The distinct links of the clicks. */
  linkIds: Set<number>;
  counts: Map<number, number>;
  rotations: Map<number, number>;
}

/** The messages handed over so far, as one batch in their order: counts add up, the latest rotation wins. */
export function fromMessages(messages: readonly BatchMessage[]): WriterBatch {
  const totals = new LinkTotals();
  for (const message of messages) totals.add(message);
  const { counts, rotations } = totals.drain();
  const clicks = new ClickColumnsView(messages.map((m) => m.clicks));
  return { clicks, linkIds: clicks.linkIds(), counts, rotations };
}
