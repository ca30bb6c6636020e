import type { ClickTraits } from '../../../core/clicks/click.ts';
import type { Click } from '../../../core/clicks/click.ts';
import { LocalSlots } from '../../../core/stats/local-time.ts';
import { RollupWindow } from '../window/rollup-window.ts';

/** A click row as written, with its account's time zone: what a rollup can be rebuilt from. */
export interface WrittenClick extends ClickTraits {
  linkId: number;
  accountId: number;
  at: number;
  timeZone: string;
  rule?: number | null;
  variant?: number | null;
  qr?: boolean;
}

/** What written click rows add to the statistics and to their links' counters. */
export interface RecoveredSums {
  window: RollupWindow;
  /** Human clicks per link (links.clicks, where the counters wait with the rollups). */
  counts: Map<number, number>;
}

/**
 * Sums click rows whose rollups were lost with a writer's window (a crash) with the window's own
 * code, so that they add exactly what the window would have: every dimension of every click,
 * in the day and hour of its account's zone now. The visitor hash is not in a click row (the
 * address is never kept), so no visitor mark and no `unique` is rebuilt (docs/design/clicks.md).
 */
export function recoverSums(rows: Iterable<WrittenClick>): RecoveredSums {
  const slots = new LocalSlots();
  const window = new RollupWindow();
  const counts = new Map<number, number>();
  const clicks: Click[] = [];
  for (const row of rows) {
    const { day, hour } = slots.of(row.at, row.timeZone);
    const { timeZone: _zone, ...fields } = row;
    clicks.push({ ...fields, day, hour, visitor: null });
    if (!row.isBot) counts.set(row.linkId, (counts.get(row.linkId) ?? 0) + 1);
  }
  window.add(clicks);
  return { window, counts };
}
