import type { Click } from '../clicks/click.ts';
import type { ClickTally } from './click-feed.ts';

/**
 * Sums the clicks of a short while per account, so that a burst of visits is published as one
 * message per account, not one per click. Bots are left out: no total the pages show counts them.
 */
export class ClickTallies {
  private pending = new Map<number, ClickTally>();

  /** Whether anything was added since the last drain. */
  get empty(): boolean {
    return this.pending.size === 0;
  }

  add(click: Pick<Click, 'accountId' | 'linkId' | 'isBot'>): void {
    if (click.isBot) return;
    let tally = this.pending.get(click.accountId);
    if (tally === undefined)
      this.pending.set(click.accountId, (tally = { accountId: click.accountId, clicks: 0, links: {} }));
    tally.clicks++;
    tally.links[click.linkId] = (tally.links[click.linkId] ?? 0) + 1;
  }

  /** The tallies so far, one per account, and a fresh start. */
  drain(): ClickTally[] {
    const tallies = [...this.pending.values()];
    this.pending = new Map();
    return tallies;
  }
}
