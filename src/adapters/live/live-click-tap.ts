import type { ClickTap } from '../../core/clicks/ports.ts';
import type { ClickFeed } from '../../core/live/click-feed.ts';
import { ClickTallies } from '../../core/live/click-tallies.ts';

/** How long a tally gathers clicks: well inside the 2 s a live page promises, few messages a second. */
const TALLY_MS = 250;

/**
 * The live feed's tap on the redirect's sink chain (adapters/clicks/sink/sink-chain.ts): a map
 * update on the click path, and one publish per TALLY_MS for every account clicked in it. Idle,
 * it keeps no timer.
 */
export class LiveClickTap implements ClickTap {
  private readonly tallies = new ClickTallies();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly feed: ClickFeed,
    private readonly intervalMs: number = TALLY_MS,
  ) {}

  /** Publishes what is gathered and stops: later clicks are not tallied. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.publish();
  }

  take(click: Parameters<ClickTallies['add']>[0]): void {
    if (this.closed) return;
    this.tallies.add(click);
    if (this.timer !== null || this.tallies.empty) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.publish();
    }, this.intervalMs);
    this.timer.unref();
  }

  private publish(): void {
    if (!this.tallies.empty) this.feed.publish(this.tallies.drain());
  }
}
