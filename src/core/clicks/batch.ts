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
