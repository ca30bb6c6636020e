/**
 * When a store that sums rollups in a RollupWindow writes it (docs/design/clicks.md): the
 * window trades how soon statistics appear for how many clicks each rollup row sums.
 */

// A bound on the heap the window takes in the process that serves redirects (its size at this
// many rows: docs/performance.md). Past this many rows the window is written at once. Heavy traffic over many links re-adds the same rows again and again (the same
// values of the same links); a window that holds a whole interval of it writes each of them
// once, where a smaller one writes them at every fill: that, not the memory, sets this bound.
export const MAX_WINDOW_ROWS = 400_000;
// A window this small is written with the batch that left it so: light traffic gets its
// statistics at once for next to nothing, while heavy traffic, whose window quickly outgrows it,
// still sums many clicks into each row it writes.
export const PROMPT_WINDOW_ROWS = 1_000;

export interface WindowState {
  /** Rows the window holds (RollupWindow.size). */
  rows: number;
  /** How long ago its oldest clicks were added. */
  ageMs: number;
  /** STATS_FLUSH_INTERVAL_MS; 0 writes the window with every batch. */
  intervalMs: number;
  /** A window smaller than this is written with its batch (PROMPT_WINDOW_ROWS unless told). */
  promptRows?: number;
}

/** Whether the window should be written now, after a batch was added to it. */
export function windowDue({ rows, ageMs, intervalMs, promptRows = PROMPT_WINDOW_ROWS }: WindowState): boolean {
  if (rows === 0) return false;
  return intervalMs === 0 || rows < promptRows || rows >= MAX_WINDOW_ROWS || ageMs >= intervalMs;
}
