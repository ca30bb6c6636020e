import type { Click } from './click.ts';

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
