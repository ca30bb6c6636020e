// The map's shading classes: at most five count ranges with round bounds, spread on a log scale
// up to the highest count, since clicks per country are skewed (one country often has most).
// Hand-written: d3-scale's quantize cuts equal widths (all but the top country land in the first
// class), quantile cuts at data values (bounds like 3–17 that read badly in a legend), and the
// log scale's ticks give every 1, 2…9 of each decade, not five classes.

export interface Bucket {
  /** 1-based rank, busiest last. */
  index: number;
  /** Inclusive bounds. */
  from: number;
  to: number;
}

const MAX_BUCKETS = 5;

/** The smallest of 1, 2, 5, 10, 20, 50… that is at least n. */
function roundUp(n: number): number {
  let decade = 1;
  for (;;) {
    for (const step of [1, 2, 5]) if (step * decade >= n) return step * decade;
    decade *= 10;
  }
}

/** Ranges covering 1..max (whole counts), each upper bound round but the last, which is max. */
export function bucketsFor(max: number): Bucket[] {
  const top = Math.floor(max);
  if (!(top >= 1)) return [];
  const uppers: number[] = [];
  for (let k = 1; k < MAX_BUCKETS; k++) {
    const bound = roundUp(top ** (k / MAX_BUCKETS));
    if (bound < top && bound > (uppers[uppers.length - 1] ?? 0)) uppers.push(bound);
  }
  uppers.push(top);
  return uppers.map((to, i) => ({ index: i + 1, from: i === 0 ? 1 : (uppers[i - 1] ?? 0) + 1, to }));
}

/** The bucket a count falls in, or null for no clicks. */
export function bucketOf(buckets: readonly Bucket[], count: number): Bucket | null {
  if (!(count > 0)) return null;
  return buckets.find((b) => count <= b.to) ?? buckets[buckets.length - 1] ?? null;
}

/**
 * The shading class of a bucket: the busiest is always `map-bucket-5`, so with fewer buckets the
 * lightest classes go unused rather than the darkest.
 */
export function bucketClass(bucket: Bucket, bucketCount: number): string {
  return `map-bucket-${bucket.index + MAX_BUCKETS - bucketCount}`;
}
