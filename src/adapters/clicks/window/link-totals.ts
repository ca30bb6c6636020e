/** What a link's row gains from the batches summed so far: human clicks, and the last rotation position. */
export interface DrainedTotals {
  counts: Map<number, number>;
  rotations: Map<number, number>;
}

/**
 * The per-link counters of many click batches, summed in memory and written together with the
 * rollup window: a link visited k times meanwhile costs one update of its row, not one a batch
 * (docs/design/clicks.md).
 */
export class LinkTotals {
  private counts = new Map<number, number>();
  private rotations = new Map<number, number>();

  /** Links with something to write. */
  get size(): number {
    return Math.max(this.counts.size, this.rotations.size);
  }

  /** A batch's counters, as Maps or as their entries (a message from another thread). */
  add(batch: { counts: Iterable<[number, number]>; rotations: Iterable<[number, number]> }): void {
    for (const [id, n] of batch.counts) this.counts.set(id, (this.counts.get(id) ?? 0) + n);
    for (const [id, position] of batch.rotations) this.rotations.set(id, position);
  }

  drain(): DrainedTotals {
    const drained = { counts: this.counts, rotations: this.rotations };
    this.counts = new Map();
    this.rotations = new Map();
    return drained;
  }

  /** Takes back what drain() gave when writing it failed; a rotation seen since stays the latest. */
  putBack(drained: DrainedTotals): void {
    for (const [id, n] of drained.counts) this.counts.set(id, (this.counts.get(id) ?? 0) + n);
    for (const [id, position] of drained.rotations) if (!this.rotations.has(id)) this.rotations.set(id, position);
  }
}
