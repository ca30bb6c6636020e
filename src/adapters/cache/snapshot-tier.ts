import type { RedirectDomain, RedirectLink } from '../../core/redirect/redirect-link.ts';

/**
 * The second tier under the cache's last known state: the redirect snapshot on disk
 * (adapters/snapshot/, docs/design/snapshot.md), consulted only while the database cannot answer.
 */
export interface SnapshotTier {
  /** The snapshot, verified and loaded; null when there is none that may be served. */
  load(): Promise<SnapshotView | null>;
}

export interface SnapshotView {
  /** When its writer began reading: a change told after it is not in it. */
  readonly writtenAt: number;
  /** The link of `alias` (lower case) on `host` (the app's host or a domain's name), if the snapshot holds it. */
  link(host: string, alias: string): RedirectLink | undefined;
  hasDomain(host: string): boolean;
  domain(host: string): RedirectDomain | null;
}

/** Link ids, owners and aliases remembered with the time of their last change. */
const REMEMBERED = 10_000;

/**
 * When this instance was last told of a change to each link, owner and alias: a snapshot written
 * before it does not hold it, so the link answers 503 rather than its old state. Bounded: past
 * REMEMBERED names, everything counts as changed at that moment.
 */
export class ChangeTimes {
  private all = 0;
  private readonly links = new Map<number, number>();
  private readonly accounts = new Map<number, number>();
  private readonly aliases = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  link(id: number, alias: string | undefined): void {
    this.note(this.links, id);
    if (alias !== undefined) this.note(this.aliases, alias.toLowerCase());
  }

  account(id: number): void {
    this.note(this.accounts, id);
  }

  /** Whether a change told after `since` may concern this link (found under `alias`, lower case). */
  after(since: number, link: RedirectLink, alias: string): boolean {
    return (
      this.all > since ||
      (this.links.get(link.id) ?? 0) > since ||
      (this.accounts.get(link.accountId) ?? 0) > since ||
      (this.aliases.get(alias) ?? 0) > since
    );
  }

  private note<K>(map: Map<K, number>, key: K): void {
    const now = this.now();
    if (this.links.size + this.accounts.size + this.aliases.size >= REMEMBERED) {
      this.links.clear();
      this.accounts.clear();
      this.aliases.clear();
      this.all = now;
    }
    map.delete(key);
    map.set(key, now);
  }
}
