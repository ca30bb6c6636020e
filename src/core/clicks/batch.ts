import type { Click } from './click.ts';
import type { ClickBatch } from './ports.ts';

/**
 * What one click adds to its link's counters: a human click counts, a bot's does not; the
 * rotation position it was served at becomes the link's latest.
 */
export function tallyClick(
  counts: Map<number, number>,
  rotations: Map<number, number>,
  click: Click,
  rotation: number | undefined,
): void {
  if (!click.isBot) counts.set(click.linkId, (counts.get(click.linkId) ?? 0) + 1);
  if (rotation !== undefined) rotations.set(click.linkId, rotation);
}

/** Builds the batch a buffer of clicks amounts to; pure, so the sink adapters share it. */
export function toBatch(entries: ReadonlyArray<{ click: Click; rotation?: number | undefined }>): ClickBatch {
  const counts = new Map<number, number>();
  const rotations = new Map<number, number>();
  for (const { click, rotation } of entries) tallyClick(counts, rotations, click, rotation);
  return { clicks: entries.map((e) => e.click), counts, rotations };
}
