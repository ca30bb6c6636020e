import type { ClickBatch } from '../../core/clicks/ports.ts';
import { decodeClicks, encodeClicks, transferablesOf, type ClickColumns } from './click-columns.ts';

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
  const clicks = encodeClicks(batch.clicks);
  return { message: { kind: 'batch', clicks, counts: [...batch.counts], rotations: [...batch.rotations] }, transfer: transferablesOf(clicks) };
}

export function fromMessage(message: BatchMessage): ClickBatch {
  return { clicks: decodeClicks(message.clicks), counts: new Map(message.counts), rotations: new Map(message.rotations) };
}
