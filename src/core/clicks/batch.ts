import type { Click } from './click.ts';
import type { ClickBatch } from './ports.ts';

/** Builds the batch a buffer of clicks amounts to; pure, so the sink adapters share it. */
export function toBatch(entries: ReadonlyArray<{ click: Click; rotation?: number | undefined }>): ClickBatch {
  const counts = new Map<number, number>();
  const rotations = new Map<number, number>();
  for (const { click, rotation } of entries) {
    if (!click.isBot) counts.set(click.linkId, (counts.get(click.linkId) ?? 0) + 1);
    if (rotation !== undefined) rotations.set(click.linkId, rotation);
  }
  return { clicks: entries.map((e) => e.click), counts, rotations };
}

/** Batches written as one, in the order they came: counts add up, the latest rotation wins. */
export function mergeBatches(batches: readonly ClickBatch[]): ClickBatch {
  if (batches.length === 1) return batches[0]!;
  const counts = new Map<number, number>();
  const rotations = new Map<number, number>();
  const clicks: Click[] = [];
  for (const batch of batches) {
    for (const click of batch.clicks) clicks.push(click);
    for (const [id, n] of batch.counts) counts.set(id, (counts.get(id) ?? 0) + n);
    for (const [id, position] of batch.rotations) rotations.set(id, position);
  }
  return { clicks, counts, rotations };
}
