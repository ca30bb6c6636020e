import type { RedirectDomain, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import type { RedirectInvalidation } from '../../core/redirect/redirect-events.ts';

interface Entry<T> {
  value: T;
  expires: number;
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
 * An LRU in front of the redirect's reads. Writes through the API invalidate their entries
 * (on every instance when the invalidation is broadcast); the TTL bounds staleness otherwise.
 */
export class CachedRedirectSource implements RedirectLinkSource, RedirectInvalidation {
  private readonly links = new Map<string, Entry<RedirectLink | null>>();
  private readonly domains = new Map<string, Entry<RedirectDomain | null>>();
  private readonly now: () => number;

  constructor(private readonly inner: RedirectLinkSource, private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
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
    map.delete(key); // re-insert: Map order is the LRU order
    map.set(key, entry);
    return entry.value;
  }

  private set<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
    const ttl = value === null ? this.options.missTtlMs : this.options.ttlMs;
    map.set(key, { value, expires: this.now() + ttl });
    if (map.size > this.options.maxEntries) map.delete(map.keys().next().value!);
  }
}
