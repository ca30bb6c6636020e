/**
 * Durations counted into fixed buckets as plain numbers: an observation is a few comparisons
 * and two additions, cheap enough for every visit. Nothing here knows prom-client; the
 * registry reads these at scrape time (prom-histogram.ts).
 */
export class DurationHistogram {
  /** Observations per bucket, not cumulative: counts[i] is over bound i-1 and up to bound i; the last is above every bound. */
  readonly counts: Float64Array;
  /** The sum of every observation, in seconds. */
  sumSeconds = 0;
  private readonly boundsMs: Float64Array;

  /** bounds: the buckets' upper bounds in seconds, ascending (Prometheus's `le`). */
  constructor(readonly bounds: readonly number[]) {
    this.boundsMs = Float64Array.from(bounds, (s) => s * 1000);
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** One duration, in milliseconds (a difference of performance.now()). */
  observe(ms: number): void {
    const bounds = this.boundsMs;
    let i = 0;
    while (i < bounds.length && ms > bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sumSeconds += ms / 1000;
  }

  get count(): number {
    let total = 0;
    for (const n of this.counts) total += n;
    return total;
  }
}

/** A redirect's time, from its request read to its answer ready: tens of microseconds from memory, milliseconds from a store. */
export const REDIRECT_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];

/** A click batch's write: milliseconds, or seconds for a backlog or a database that hesitates. */
export const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
