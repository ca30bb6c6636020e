import type { ClickBatch } from '../../core/clicks/ports.ts';

/** A batch as it crosses to the writer thread (Maps become entry lists). */
export interface BatchMessage {
  id: number;
  clicks: ClickBatch['clicks'];
  counts: Array<[number, number]>;
  rotations: Array<[number, number]>;
}

export type WriterReply = { id: number; ok: true } | { id: number; ok: false; error: string };

export function toMessage(id: number, batch: ClickBatch): BatchMessage {
  return { id, clicks: batch.clicks, counts: [...batch.counts], rotations: [...batch.rotations] };
}

export function fromMessage(message: BatchMessage): ClickBatch {
  return { clicks: message.clicks, counts: new Map(message.counts), rotations: new Map(message.rotations) };
}
