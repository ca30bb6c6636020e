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

  constructor(private readonly inner: RedirectLinkSource, private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached answer for host and alias, without reading the database: a link, null (known
   * not to exist), or undefined (not cached; find() reads it). The redirect's fast path.
   */
  peek(host: string, alias: string): RedirectLink | null | undefined {
    return this.get(this.links, `${host} ${alias.toLowerCase()}`);
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
    for (const [key, entry] of this.links) if (entry.value?.id === linkId) this.links.delete(key);
    this.dropMisses();
  }

  accountChanged(accountId: number): void {
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
    map.set(key, { value, expires: this.now() + ttl, used: false });
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
