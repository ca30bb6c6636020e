import { ALIAS_PATTERN } from '../../core/links/aliases.ts';
import { LINK_LIMITS } from '../../core/links/link-input.ts';
import type { DomainNameSource, RedirectDomain, RedirectLink, RedirectLinkSource } from '../../core/redirect/redirect-link.ts';
import type { RedirectInvalidation } from '../../core/redirect/redirect-events.ts';
import { KnownDomains } from './known-domains.ts';

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
  /** Links kept. */
  maxEntries: number;
  /**
   * Unknown aliases kept, apart from the links so that a flood of them never pushes links out;
   * default the smaller of maxEntries and 10 000.
   */
  maxMisses?: number;
  /** Custom domains' root and not-found answers kept; default 10 000. */
  maxDomains?: number;
  /**
   * How old the list of custom domain names may get before it is read again, should a broadcast
   * change be missed; default ttlMs, between 1 and 30 s.
   */
  namesRefreshMs?: number;
  /**
   * The app's own host name (APP_URL's): every Host that is no custom domain's name is looked up,
   * and cached, as this one.
   */
  appHost: string;
  /** Failed background loads of the domain names. */
  onError?: (error: unknown) => void;
  now?: () => number;
}

/** What the cache holds, for tests and an operator's questions. */
export interface CacheSizes {
  links: number;
  misses: number;
  domains: number;
  domainNames: number;
  /** The longest key held, in characters. */
  longestKey: number;
}

/**
 * A cache in front of the redirect's reads, evicting by CLOCK (an LRU approximation whose hits
 * only set a flag: moving the entry in the Map on every hit cost the redirect more than the
 * lookup itself). Writes through the API invalidate their entries
 * (on every instance when the invalidation is broadcast); the TTL bounds staleness otherwise.
 *
 * Keys are bounded in number and size whatever clients send: a Host that is not a custom
 * domain's name is keyed as the app's host (it serves the app's links anyway), and an alias no
 * link can have is answered "unknown" without a read or an entry.
 */
export class CachedRedirectSource implements RedirectLinkSource, RedirectInvalidation {
  private readonly links = new Map<string, Entry<RedirectLink>>();
  private readonly misses = new Map<string, Entry<null>>();
  private readonly domains = new Map<string, Entry<RedirectDomain | null>>();
  private readonly names: KnownDomains;
  private readonly now: () => number;
  private readonly maxMisses: number;
  private readonly maxDomains: number;
  /** Bumped by every invalidation: a refresh that began before one must not store what it read. */
  private epoch = 0;
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly inner: RedirectLinkSource & DomainNameSource,
    private readonly options: CacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.maxMisses = options.maxMisses ?? Math.min(options.maxEntries, 10_000);
    this.maxDomains = options.maxDomains ?? 10_000;
    this.names = new KnownDomains(inner, {
      refreshMs: options.namesRefreshMs ?? Math.max(1000, Math.min(options.ttlMs, 30_000)),
      now: this.now,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** Loads the custom domain names; until then peek() answers nothing and find() waits. */
  ready(): Promise<void> {
    return this.names.ready();
  }

  /**
   * The cached answer for host and alias, without reading the database: a link, null (known
   * not to exist), or undefined (not cached; find() reads it). The redirect's fast path.
   */
  peek(host: string, alias: string): RedirectLink | null | undefined {
    const name = this.nameOf(host);
    if (name === undefined) return undefined;
    // Only find() stores, and only aliases a link can have: any other alias is simply not found here.
    const key = `${name} ${alias.toLowerCase()}`;
    const entry = this.links.get(key);
    if (entry === undefined) return this.get(this.misses, key);
    const now = this.now();
    if (entry.expires <= now) {
      // A link just past its time is served while it is read again in the background: the
      // visitor does not wait for the database, and links loaded together do not all make
      // their visitors wait at once when they expire together. Older entries are read before
      // they are served again.
      if (entry.expires + this.options.ttlMs <= now) return undefined;
      this.refresh(key, name, alias);
    }
    entry.used = true;
    return entry.value;
  }

  private refresh(key: string, host: string, alias: string): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    const epoch = this.epoch;
    // Visits answered by peek() alone never ask for the domain names: this is where an old list
    // starts its reload. A failed load is reported by KnownDomains; the old list stays.
    this.names.ready().catch(() => {});
    this.inner
      .find(host, alias)
      .then(
        (link) => {
          if (epoch === this.epoch) this.store(key, link);
        },
        () => {}, // the entry stays expired: the next visit tries again, or find() reads it
      )
      .finally(() => this.refreshing.delete(key));
  }

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    if (!isAlias(alias)) return null;
    await this.names.ready();
    const name = this.nameOf(host) ?? this.options.appHost;
    const key = `${name} ${alias.toLowerCase()}`;
    const hit = this.get(this.links, key) ?? this.get(this.misses, key);
    if (hit !== undefined) return hit;
    const link = await this.inner.find(name, alias);
    this.store(key, link);
    return link;
  }

  /** The host a visit is looked up and cached as; undefined while that is not known yet. */
  private nameOf(host: string): string | undefined {
    // The app's own host is never a custom domain's name: most visits need no lookup.
    if (host === this.options.appHost) return host;
    const known = this.names.has(host);
    return known === undefined ? undefined : known ? host : this.options.appHost;
  }

  async domain(host: string): Promise<RedirectDomain | null> {
    await this.names.ready();
    // Any other host is the app's: no custom domain, nothing to read or to remember.
    if (!this.names.has(host)) return null;
    const hit = this.get(this.domains, host);
    if (hit !== undefined) return hit;
    const domain = await this.inner.domain(host);
    this.set(this.domains, host, domain, domain === null ? this.options.missTtlMs : this.options.ttlMs, this.maxDomains);
    return domain;
  }

  linkChanged(linkId: number): void {
    this.epoch++;
    for (const [key, entry] of this.links) if (entry.value.id === linkId) this.links.delete(key);
    // A new or renamed link may be cached as "unknown" under its alias.
    this.misses.clear();
  }

  accountChanged(accountId: number): void {
    this.epoch++;
    for (const [key, entry] of this.links) if (entry.value.accountId === accountId) this.links.delete(key);
    for (const [key, entry] of this.domains) {
      // A new domain was a miss until now.
      if (entry.value === null || entry.value.accountId === accountId) this.domains.delete(key);
    }
    this.misses.clear();
    // A domain added, renamed or deleted changes which hosts are the app's.
    this.names.invalidate();
  }

  get sizes(): CacheSizes {
    let longestKey = 0;
    for (const map of [this.links, this.misses, this.domains]) {
      for (const key of map.keys()) longestKey = Math.max(longestKey, key.length);
    }
    return { links: this.links.size, misses: this.misses.size, domains: this.domains.size, domainNames: this.names.size, longestKey };
  }

  private store(key: string, link: RedirectLink | null): void {
    if (link === null) {
      this.links.delete(key);
      this.set(this.misses, key, null, this.options.missTtlMs, this.maxMisses);
    } else {
      this.misses.delete(key);
      this.set(this.links, key, link, this.options.ttlMs, this.options.maxEntries);
    }
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

  private set<T>(map: Map<string, Entry<T>>, key: string, value: T, ttl: number, max: number): void {
    map.delete(key); // a fresh entry goes to the end of the order
    // Up to half earlier at random: links read together (a warm-up, a restart) do not all expire,
    // and make the event loop read them all again, in the same second.
    map.set(key, { value, expires: this.now() + ttl - Math.floor(Math.random() * ttl * 0.5), used: false });
    // From the oldest: an entry read since the last pass goes to the end, the first unread one goes.
    // Each pass clears the flags it moves, so this ends within one lap of the Map.
    while (map.size > max) {
      const [oldestKey, oldest] = map.entries().next().value!;
      map.delete(oldestKey);
      if (oldest.used && oldestKey !== key) {
        oldest.used = false;
        map.set(oldestKey, oldest);
      }
    }
  }
}

/** An alias a link can have: anything else is unknown without a read, and never a key. */
function isAlias(alias: string): boolean {
  return alias.length <= LINK_LIMITS.aliasMax && ALIAS_PATTERN.test(alias);
}
