import { DurationHistogram, FLUSH_BUCKETS } from './duration-histogram.ts';

/**
 * The click pipeline's counts, kept by the sinks in src/adapters/clicks as plain numbers (a
 * visit adds one to `recorded`) and read at scrape time.
 */
export class ClickMeter {
  /** Clicks a visit handed to the sink. */
  recorded = 0;
  /** Clicks written to the database (those of a link deleted meanwhile included: they are done with). */
  written = 0;
  /** Clicks given up: the buffer was full while the database was away (CLICK_BUFFER_MAX). */
  dropped = 0;
  /** Clicks kept in the spool on disk past the buffer, to be written when the database answers (counted written then). */
  spooled = 0;
  /** How long each batch took to write. */
  readonly flushes = new DurationHistogram(FLUSH_BUCKETS);

  /** Clicks recorded and neither written nor dropped yet: in memory, on this thread or the writer thread. */
  get pending(): number {
    return this.recorded - this.written - this.dropped;
  }
}
