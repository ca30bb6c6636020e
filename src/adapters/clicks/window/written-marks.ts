// A bound on the heap the memory takes on the writer's thread (a mark is a visitor hash and a
// set entry). Past it the memory starts again empty: a mark it forgot is only sent once more.
const MAX_WRITTEN_MARKS = 250_000;
// The days remembered: a click's day is its link's local day, so at one moment clicks fall on up
// to three dates (UTC-12 to UTC+14). The retention deletes the marks of days before yesterday in
// UTC (stats-service.ts), and the memory must not say a deleted mark is there: the three latest
// days clicks came on are no older than yesterday while clicks come.
const DAYS_KEPT = 3;

/** The visitors a window marked on one link and day (RollupWindow.markSets). */
export interface MarkSet {
  day: string;
  linkId: number;
  visitors: Set<string>;
}

/**
 * The visitor marks (day, link, visitor) this writer has seen committed, so that a window need
 * not send them again: a mark only tells whether a visitor is new to a link on a day, and one
 * already written never is. Heavy traffic brings the same visitors back to the same links all
 * day, and each window would otherwise write every one of their marks again, each a probe of
 * `click_visitors`' key that finds the row there (docs/design/clicks.md). Another writer's marks are
 * not here: those the database still tells apart, as before.
 */
export class WrittenMarks {
  private readonly days = new Map<string, Map<number, Set<string>>>();
  private size = 0;

  constructor(private readonly max = MAX_WRITTEN_MARKS) {}

  /** Whether the mark was written (by this writer, and committed). */
  has(day: string, linkId: number, visitor: string): boolean {
    return this.days.get(day)?.get(linkId)?.has(visitor) === true;
  }

  /**
   * The marks of a window whose transaction committed. A link and day new to the memory keeps
   * the window's own set, not a copy: the window is done with once written.
   */
  addAll(sets: Iterable<MarkSet>): void {
    for (const { day, linkId, visitors } of sets) {
      if (visitors.size === 0) continue;
      if (this.size + visitors.size > this.max) this.forgetAll();
      let links = this.days.get(day);
      if (links === undefined) {
        links = new Map();
        this.days.set(day, links);
        this.forgetOldDays();
        // A day older than the three kept (a late batch's) is not remembered.
        if (!this.days.has(day)) continue;
      }
      const known = links.get(linkId);
      if (known === undefined) {
        links.set(linkId, visitors);
        this.size += visitors.size;
        continue;
      }
      for (const visitor of visitors) {
        if (known.has(visitor)) continue;
        known.add(visitor);
        this.size++;
      }
    }
  }

  /** Marks remembered. */
  get count(): number {
    return this.size;
  }

  private forgetAll(): void {
    this.days.clear();
    this.size = 0;
  }

  private forgetOldDays(): void {
    const days = [...this.days.keys()].sort();
    for (const day of days.slice(0, Math.max(0, days.length - DAYS_KEPT))) {
      for (const visitors of this.days.get(day)!.values()) this.size -= visitors.size;
      this.days.delete(day);
    }
  }
}
