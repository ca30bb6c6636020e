import type { Clock } from '../shared/clock.ts';
import { epochMsToZonedDate } from '../expiration/ends-at.ts';
import { addDays } from './range.ts';
import { foldableBefore } from './rollup-months.ts';
import type { ClickRetention, MonthFolder } from './stats-store.ts';
import { VISITOR_MARK_DAYS } from '../privacy/data-tables.ts';

const FOLD_LINKS_A_ROUND = 100_000;
const FOLD_ROUND_MS = 250;

export interface StatsMaintenanceDeps {
  retention: ClickRetention;
  months: MonthFolder;
  clock: Clock;
  /** Raw click rows older than this many days are deleted; 0 keeps them forever. */
  retentionDays: number;
}

/**
 * The statistics' jobs run on a timer, not to answer anyone (docs/design/statistics.md): the
 * retention of raw clicks and visitor marks, and the folding of finished months. The server's
 * scheduler calls them; the queries are StatsService's.
 */
export class StatsMaintenance {
  constructor(private readonly deps: StatsMaintenanceDeps) {}

  /** Deletes raw clicks past the retention and visitor marks past their use; rollups stay. */
  prune(): Promise<{ clicks: number; visitors: number }> {
    const now = this.deps.clock.now();
    const before = this.deps.retentionDays > 0 ? now - this.deps.retentionDays * 86_400_000 : null;
    return this.deps.retention.prune(before, addDays(epochMsToZonedDate(now, 'UTC'), -VISITOR_MARK_DAYS));
  }

  /**
   * One round of folding the daily rollups of the months over everywhere into monthly ones:
   * at most `links` links and about a quarter of a second, so that it takes little from the
   * redirect's thread and a stop never waits long for it. Answers how many links it folded
   * (0: nothing to fold now).
   */
  foldMonths(links = FOLD_LINKS_A_ROUND): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.months.foldBefore(foldableBefore(now), { now, links, ms: FOLD_ROUND_MS });
  }
}
