// What a batch's clicks add to the rollups, read through a window of their own: the window's
// code, drained once (the tests of what a click sums to).
import type { Click } from '../../src/core/clicks/click.ts';
import type { RollupIncrement, VisitorMark } from '../../src/core/stats/rollups.ts';
import { RollupWindow, type DrainedRollups } from '../../src/adapters/clicks/window/rollup-window.ts';

/** One increment per rollup row of the clicks, in key order; bots add to `bot` only (`unique` comes from the marks a store finds new). */
export function rollupsOf(clicks: readonly Click[]): RollupIncrement[] {
  return windowOf(clicks).increments;
}

/** The distinct visitor marks of the clicks' human visits. */
export function visitorMarksOf(clicks: readonly Click[]): VisitorMark[] {
  return windowOf(clicks).marks;
}

function windowOf(clicks: readonly Click[]): DrainedRollups {
  const window = new RollupWindow();
  window.add(clicks);
  return window.drain();
}
