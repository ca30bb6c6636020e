import type { Click } from '../clicks/click.ts';
import { addClickTo, addMarkTo, sortIncrements, type RollupIncrement, type VisitorMark } from './rollups.ts';

/**
 * The rollups of many click batches, summed in memory and written together: a link visited
 * k times in a window costs one row write per dimension value, not k. The store writes what
 * drain() hands it (docs/adr/0008-rollup-window.md).
 */
export class RollupWindow {
  private increments = new Map<string, RollupIncrement>();
  private marks = new Map<string, VisitorMark>();

  add(clicks: readonly Click[]): void {
    for (const click of clicks) {
      addClickTo(this.increments, click);
      addMarkTo(this.marks, click);
    }
  }

  /** Rows the window holds: the store writes early when it gets large. */
  get size(): number {
    return this.increments.size + this.marks.size;
  }

  /** Everything summed so far, increments in key order; the window starts empty again. */
  drain(): DrainedRollups {
    const out = { increments: sortIncrements([...this.increments.values()]), marks: [...this.marks.values()] };
    this.increments = new Map();
    this.marks = new Map();
    return out;
  }

  /** Takes back what drain() gave when writing it failed, so that nothing is lost. */
  putBack(drained: DrainedRollups): void {
    for (const r of drained.increments) {
      const key = `${r.linkId}\u0000${r.dimension}\u0000${r.day}\u0000${r.value}`;
      const found = this.increments.get(key);
      if (found) found.count += r.count;
      else this.increments.set(key, { ...r });
    }
    for (const m of drained.marks) this.marks.set(`${m.linkId}\u0000${m.day}\u0000${m.visitor}`, m);
  }
}

export interface DrainedRollups {
  increments: RollupIncrement[];
  marks: VisitorMark[];
}
