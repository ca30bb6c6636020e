import type { RedirectDomain, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import type { RedirectInvalidation } from '../../core/redirect/redirect-events.ts';

interface Entry<T> {
  value: T;
  expires: number;
  /** Read since eviction last passed it (CLOCK: a second chance instead of reordering on every hit). */
  used: boolean;
}

export interface CacheOptions {
  /** How long an entry may be served without asking the database again. */
  ttlMs: number;
  /** Unknown aliases are remembered briefly too, so a flood of misses stays cheap. */
  missTtlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * A cache in front of the redirect's reads, evicting by CLOCK (an LRU approximation whose hits
 * only set a flag: moving the entry in the Map on every hit cost the redirect more than the
 * lookup itself). Writes through the API invalidate their entries
 * (on every instance when the invalidation is broadcast); the TTL bounds staleness otherwise.
 */
export class CachedRedirectSource implements RedirectLinkSource, RedirectInvalidation {
  private readonly links = new Map<string, Entry<RedirectLink | null>>();
  private readonly domains = new Map<string, Entry<RedirectDomain | null>>();
  private readonly now: () => number;
  /** Bumped by every invalidation: a refresh that began before one must not store what it read. */
  private epoch = 0;
  private readonly refreshing = new Set<string>();

  constructor(private readonly inner: RedirectLinkSource, private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached answer for host and alias, without reading the database: a link, null (known
   * not to exist), or undefined (not cached; find() reads it). The redirect's fast path.
   */
  peek(host: string, alias: string): RedirectLink | null | undefined {
    const key = `${host} ${alias.toLowerCase()}`;
    const entry = this.links.get(key);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (entry.expires <= now) {
      // A link just past its time is served while it is read again in the background: the
      // visitor does not wait for the database, and links loaded together do not all make
      // their visitors wait at once when they expire together. Older entries, and "unknown"
      // answers, are read before they are served again.
      if (entry.value === null || entry.expires + this.options.ttlMs <= now) return undefined;
      this.refresh(key, host, alias);
    }
    entry.used = true;
    return entry.value;
  }

  private refresh(key: string, host: string, alias: string): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    const epoch = this.epoch;
    this.inner.find(host, alias).then(
      (link) => {
        if (epoch === this.epoch) this.set(this.links, key, link);
      },
      () => {}, // the entry stays expired: the next visit tries again, or find() reads it
    ).finally(() => this.refreshing.delete(key));
  }

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    const key = `${host} ${alias.toLowerCase()}`;
    const hit = this.get(this.links, key);
    if (hit !== undefined) return hit;
    const link = await this.inner.find(host, alias);
    this.set(this.links, key, link);
    return link;
  }

  async domain(host: string): Promise<RedirectDomain | null> {
    const hit = this.get(this.domains, host);
    if (hit !== undefined) return hit;
    const domain = await this.inner.domain(host);
    this.set(this.domains, host, domain);
    return domain;
  }

  linkChanged(linkId: number): void {
    this.epoch++;
    for (const [key, entry] of this.links) if (entry.value?.id === linkId) this.links.delete(key);
    this.dropMisses();
  }

  accountChanged(accountId: number): void {
    this.epoch++;
    for (const [key, entry] of this.links) if (entry.value?.accountId === accountId) this.links.delete(key);
    for (const [key, entry] of this.domains) if (entry.value?.accountId === accountId) this.domains.delete(key);
    this.dropMisses();
    // A new domain was a miss until now.
    for (const [key, entry] of this.domains) if (entry.value === null) this.domains.delete(key);
  }

  /** A new or renamed link may be cached as "unknown" under its alias. */
  private dropMisses(): void {
    for (const [key, entry] of this.links) if (entry.value === null) this.links.delete(key);
  }

  private get<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      map.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  private set<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
    const ttl = value === null ? this.options.missTtlMs : this.options.ttlMs;
    map.delete(key); // a fresh entry goes to the end of the order
    // Up to half earlier at random: links read together (a warm-up, a restart) do not all expire,
    // and make the event loop read them all again, in the same second.
    map.set(key, { value, expires: this.now() + ttl - Math.floor(Math.random() * ttl * 0.5), used: false });
    // From the oldest: an entry read since the last pass goes to the end, the first unread one goes.
    // Each pass clears the flags it moves, so this ends within one lap of the Map.
    while (map.size > this.options.maxEntries) {
      const [oldestKey, oldest] = map.entries().next().value!;
      map.delete(oldestKey);
      if (oldest.used && oldestKey !== key) {
        oldest.used = false;
        map.set(oldestKey, oldest);
      }
    }
  }
}
