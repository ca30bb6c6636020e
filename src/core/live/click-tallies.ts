import type { Click } from '../clicks/click.ts';
import type { ClickTally } from './click-feed.ts';

/** An account's tally while it gathers: per link in a Map, turned into ClickTally's record on drain. */
interface Gathering {
  accountId: number;
  clicks: number;
  links: Map<number, number>;
}

/**
 * Sums the clicks of a short while per account, so that a burst of visits is published as one
 * message per account, not one per click. Bots are left out: no total the pages show counts them.
 */
export class ClickTallies {
  private pending = new Map<number, Gathering>();

  /** Whether anything was added since the last drain. */
  get empty(): boolean {
    return this.pending.size === 0;
  }

  add(click: Pick<Click, 'accountId' | 'linkId' | 'isBot'>): void {
    if (click.isBot) return;
    let tally = this.pending.get(click.accountId);
    if (tally === undefined)
      this.pending.set(click.accountId, (tally = { accountId: click.accountId, clicks: 0, links: new Map() }));
    tally.clicks++;
    // A Map on the click path: link ids as keys of a plain object made it a slow dictionary of elements.
    tally.links.set(click.linkId, (tally.links.get(click.linkId) ?? 0) + 1);
  }

  /** The tallies so far, one per account, and a fresh start. */
  drain(): ClickTally[] {
    const tallies = [...this.pending.values()].map(({ accountId, clicks, links }): ClickTally => ({
      accountId,
      clicks,
      links: Object.fromEntries(links),
    }));
    this.pending = new Map();
    return tallies;
  }
}
