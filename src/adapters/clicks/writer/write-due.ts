// Kept back from the flush interval for the write itself (a transaction of a few hundred rows):
// a quarter of the interval, at most this.
const WRITE_ALLOWANCE_MS = 100;

/**
 * How long after the oldest waiting click was recorded its write begins: the flush interval less
 * time for the write, so that once the write commits a `kill -9` loses only clicks answered in
 * the last interval (docs/design/clicks.md). Counted from each click's own time, not from a timer of the
 * thread: a tick that began before the click came would let it wait an interval and more.
 */
export function writeDueMs(intervalMs: number): number {
  return intervalMs - Math.min(intervalMs / 4, WRITE_ALLOWANCE_MS);
}

/** How long from `now` until the write of clicks waiting since `since` is due (0: now). */
export function writeDueIn(since: number, intervalMs: number, now: number): number {
  return Math.max(0, since + writeDueMs(intervalMs) - now);
}
