import { ALIAS_PATTERN } from '../../core/links/aliases.ts';
import { LINK_LIMITS } from '../../core/links/link-input.ts';
import type {
  DomainNameSource,
  HostedLink,
  RedirectDomain,
  RedirectLink,
  RedirectLinkSource,
} from '../../core/redirect/redirect-link.ts';
import { UnavailableError } from '../../core/shared/errors.ts';
import type { InvalidationHandler } from '../state/redis-invalidation.ts';
import { ChangeLog } from './change-log.ts';
import { ClockMap, type ClockEntry } from './clock-map.ts';
import { DatabaseGate } from './database-gate.ts';
import { KeyIndex } from './key-index.ts';
import { KnownDomains } from './known-domains.ts';
import { ChangeTimes, type SnapshotTier, type SnapshotView } from './snapshot-tier.ts';

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
  /**
   * Told when visits start being answered from links' last known state (the database cannot be
   * read), and when reads succeed again: once each per outage.
   */
  onStale?: (message: string) => void;
  /**
   * The redirect snapshot on disk: what a visit the database cannot answer, of a link not held
   * here, is answered from (docs/design/snapshot.md).
   */
  snapshot?: SnapshotTier;
  /** Told of every invalidation received (the snapshot's writer writes a new file). */
  onChange?: () => void;
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

/** A read shared by every visit that misses the same key while it is on its way. */
type Read = Promise<RedirectLink | null>;

/** Times a read overtaken by an invalidation is repeated before its answer is given uncached. */
const READ_ATTEMPTS = 3;
/** While the database is away, how often a visit's read tries it again. */
const PROBE_MS = 1000;

/**
 * A cache in front of the redirect's reads (CLOCK eviction, clock-map.ts). Writes through the
 * API invalidate their entries by key (on every instance when the invalidation is broadcast):
 * indexes by link id, by owner and by alias find them without walking the cache; the TTL bounds
 * staleness otherwise.
 *
 * Cold, it reads each key once however many visits miss it together (they share the read), and
 * remembers unknown aliases briefly. A read that an invalidation may have overtaken is read again
 * rather than stored (change-log.ts).
 *
 * Keys are bounded in number and size whatever clients send: a Host that is not a custom
 * domain's name is keyed as the app's host (it serves the app's links anyway), and an alias no
 * link can have is answered "unknown" without a read or an entry.
 *
 * A link past its time, or doubted because invalidations may have been lost (Redis was away),
 * stays held, expired, until it is read again, evicted or invalidated: while the database
 * cannot be read, its visits are answered from that last known state rather than 503
 * (docs/design/outages.md). An invalidation received removes the entry, so what it named is never
 * answered stale.
 */
export class CachedRedirectSource implements RedirectLinkSource, InvalidationHandler {
  private readonly links: ClockMap<RedirectLink>;
  private readonly misses: ClockMap<null>;
  private readonly domains: ClockMap<RedirectDomain | null>;
  /** The keys each link id, each owner and each unknown alias is cached under. */
  private readonly byLink = new KeyIndex<number>();
  private readonly byAccount = new KeyIndex<number>();
  private readonly missesByAlias = new KeyIndex<string>();
  private readonly names: KnownDomains;
  private readonly now: () => number;
  private readonly changes = new ChangeLog();
  private readonly reads = new Map<string, Read>();
  private readonly database: DatabaseGate;
  private readonly changeTimes: ChangeTimes;
  /**
   * Look-ups of find() answered from memory (hits) or not (misses: read from the database, or
   * waiting for a read already on its way), background re-reads begun by peek(), and visits
   * answered from a link's last known state while the database could not be read (stale, also
   * counted as misses when a read was tried; snapshot: those of them the snapshot answered);
   * plain numbers for GET /metrics. peek() counts no hit or miss: the fast path counts what it
   * answers, and what it does not goes on to find().
   */
  readonly counts = { hits: 0, misses: 0, refreshes: 0, stale: 0, snapshot: 0 };

  constructor(
    private readonly inner: RedirectLinkSource & DomainNameSource,
    private readonly options: CacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.changeTimes = new ChangeTimes(this.now);
    this.database = new DatabaseGate({
      probeMs: PROBE_MS,
      now: this.now,
      ...(options.onStale ? { onChange: options.onStale } : {}),
    });
    this.links = new ClockMap(options.maxEntries, (key, link) => {
      this.byLink.remove(link.id, key);
      this.byAccount.remove(link.accountId, key);
    });
    this.misses = new ClockMap(options.maxMisses ?? Math.min(options.maxEntries, 10_000), (key) =>
      this.missesByAlias.remove(aliasOf(key), key),
    );
    this.domains = new ClockMap(options.maxDomains ?? 10_000);
    this.names = new KnownDomains(inner, {
      refreshMs: options.namesRefreshMs ?? Math.max(1000, Math.min(options.ttlMs, 30_000)),
      now: this.now,
      ...(options.onError ? { onError: options.onError } : {}),
    });
  }

  /** Whether a TLS certificate may be issued for the custom domain's name (GET /tls/allowed). */
  mayCertify(host: string): boolean | undefined {
    return this.names.mayCertify(host);
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
    const entry = this.links.entry(key);
    if (entry === undefined) return this.misses.get(key, this.now());
    const now = this.now();
    if (entry.expires <= now) {
      // A link just past its time is served while it is read again in the background: the
      // visitor does not wait for the database, and links loaded together do not all make
      // their visitors wait at once when they expire together. Older entries are read before
      // they are served again.
      if (entry.expires + this.options.ttlMs <= now) return undefined;
      // Visits answered by peek() alone never ask for the domain names: this is where an old
      // list starts its reload. A failed load is reported by KnownDomains; the old list stays.
      this.names.ready().catch(() => {});
      // A failed read leaves the entry expired: the next visit tries again, or find() reads it.
      // While the database is away, one visit a second does.
      if (!this.reads.has(key) && this.database.mayRead()) {
        this.counts.refreshes++;
        this.read(key, name, alias).catch(() => {});
      }
    }
    entry.used = true;
    return entry.value;
  }

  async find(host: string, alias: string): Promise<RedirectLink | null> {
    if (!isAlias(alias)) return null;
    const lower = alias.toLowerCase();
    try {
      await this.names.ready();
    } catch (error) {
      // The domain names could not be read again: a host the list in hand knows keeps its links.
      const name = this.nameOf(host);
      const held = name === undefined ? undefined : this.links.entry(`${name} ${lower}`);
      if (!(error instanceof UnavailableError)) throw error;
      if (held !== undefined) return this.lastKnown(held);
      this.database.failed(error);
      return this.fromSnapshot(name, host, lower, error);
    }
    const name = this.nameOf(host) ?? this.options.appHost;
    const key = `${name} ${lower}`;
    const now = this.now();
    const entry = this.links.entry(key);
    if (entry !== undefined && entry.expires > now) {
      entry.used = true;
      this.counts.hits++;
      return entry.value;
    }
    const miss = this.misses.get(key, now);
    if (miss !== undefined) {
      this.counts.hits++;
      return miss;
    }
    if (entry !== undefined && this.database.away) {
      // No visit waits on an attempt likely to fail (a cut network holds it until the connect
      // timeout): one read a second tries the database in the background.
      if (!this.reads.has(key) && this.database.mayRead()) {
        this.counts.refreshes++;
        this.read(key, name, alias).catch(() => {});
      }
      return this.lastKnown(entry);
    }
    this.counts.misses++;
    if (this.database.away && this.options.snapshot) {
      // Not held here, and the database known to be away: the snapshot answers at once, while
      // one read a second tries the database in the background.
      const view = await this.options.snapshot.load();
      const link = view === null ? undefined : this.snapshotLink(view, name, lower);
      if (link !== undefined) {
        if (!this.reads.has(key) && this.database.mayRead()) this.read(key, name, alias).catch(() => {});
        return link;
      }
    }
    try {
      return await this.read(key, name, alias);
    } catch (error) {
      // Looked up again: an invalidation received while the read was on its way removed it.
      const held = this.links.entry(key);
      if (!(error instanceof UnavailableError)) throw error;
      if (held !== undefined) return this.lastKnown(held);
      return this.fromSnapshot(name, host, lower, error);
    }
  }

  /**
   * A visit the database cannot answer, of a link not held here: the snapshot's link, unless a
   * change told after the snapshot was written may concern it (then, as without the snapshot, 503).
   * `name`: the host as the cache keys it, undefined while the domain names were never loaded.
   */
  private async fromSnapshot(
    name: string | undefined,
    host: string,
    alias: string,
    error: UnavailableError,
  ): Promise<RedirectLink> {
    const view = await this.options.snapshot?.load();
    if (!view) throw error;
    const link = this.snapshotLink(view, name ?? (view.hasDomain(host) ? host : this.options.appHost), alias);
    if (link === undefined) throw error;
    return link;
  }

  private snapshotLink(view: SnapshotView, name: string, alias: string): RedirectLink | undefined {
    const link = view.link(name, alias);
    if (link === undefined || this.changeTimes.after(view.writtenAt, link, alias)) return undefined;
    this.counts.stale++;
    this.counts.snapshot++;
    this.database.servedStale();
    return link;
  }

  /** A held link's last known state, for a visit the database cannot answer. */
  private lastKnown(entry: ClockEntry<RedirectLink>): RedirectLink {
    this.counts.stale++;
    this.database.servedStale();
    return entry.value;
  }

  /** One read per key at a time: a visit that misses while one is on its way waits for it. */
  private read(key: string, host: string, alias: string): Read {
    let read = this.reads.get(key);
    if (read === undefined) {
      read = this.readAndStore(key, host, alias);
      this.reads.set(key, read);
      // Failed or not, the next miss reads again: a failure is never remembered.
      const done = () => void (this.reads.get(key) === read && this.reads.delete(key));
      read.then(done, done);
    }
    return read;
  }

  private async readAndStore(key: string, host: string, alias: string): Read {
    const lower = alias.toLowerCase();
    for (let attempt = 1; ; attempt++) {
      const mark = this.changes.mark;
      let link: RedirectLink | null;
      try {
        link = await this.inner.find(host, alias);
      } catch (error) {
        this.database.failed(error);
        throw error;
      }
      this.database.succeeded();
      if (!this.changes.overtakes(mark, lower, link)) {
        this.store(key, link);
        return link;
      }
      // Changed while on its way: what was read may be the old version. Answered, not kept.
      if (attempt === READ_ATTEMPTS) return link;
    }
  }

  /** The host a visit is looked up and cached as; undefined while that is not known yet. */
  private nameOf(host: string): string | undefined {
    // The app's own host is never a custom domain's name: most visits need no lookup.
    if (host === this.options.appHost) return host;
    const known = this.names.has(host);
    return known === undefined ? undefined : known ? host : this.options.appHost;
  }

  async domain(host: string): Promise<RedirectDomain | null> {
    try {
      return await this.readDomain(host);
    } catch (error) {
      const view = error instanceof UnavailableError ? await this.options.snapshot?.load() : null;
      if (!view) throw error;
      return view.domain(host);
    }
  }

  private async readDomain(host: string): Promise<RedirectDomain | null> {
    await this.names.ready();
    // Any other host is the app's: no custom domain, nothing to read or to remember.
    if (!this.names.has(host)) return null;
    const hit = this.domains.get(host, this.now());
    if (hit !== undefined) return hit;
    const mark = this.changes.mark;
    const domain = await this.inner.domain(host);
    if (!this.changes.accountsChangedSince(mark)) {
      this.domains.set(host, domain, domain === null ? this.options.missTtlMs : this.options.ttlMs, this.now());
    }
    return domain;
  }

  /**
   * A mark to pass to prime(): links read after it are kept only if no change since concerns
   * them.
   */
  get mark(): number {
    return this.changes.mark;
  }

  /**
   * Stores links read in bulk (a warm-up) under their hosts, unless a change since `mark`
   * concerns them or a visit has cached them meanwhile. A link of a domain not known as one is
   * left out. Answers how many were stored.
   */
  prime(found: readonly HostedLink[], mark: number): number {
    let stored = 0;
    const now = this.now();
    for (const { host, link } of found) {
      const name = host ?? this.options.appHost;
      if (host !== null && this.names.has(host) !== true) continue;
      const lower = link.alias.toLowerCase();
      const key = `${name} ${lower}`;
      // A held entry past its time is older than this read: only a fresh one is kept.
      if ((this.links.entry(key)?.expires ?? now) > now || this.changes.overtakes(mark, lower, link)) continue;
      this.store(key, link);
      stored++;
    }
    return stored;
  }

  linkChanged(linkId: number, alias?: string): void {
    this.changes.link(linkId, alias);
    this.changeTimes.link(linkId, alias);
    this.options.onChange?.();
    for (const key of this.byLink.keysOf(linkId)) this.links.delete(key);
    // The alias a write gave a link may be remembered as unknown: under any host, it is one key each.
    if (alias !== undefined) for (const key of this.missesByAlias.keysOf(alias.toLowerCase())) this.misses.delete(key);
  }

  accountChanged(accountId: number): void {
    this.changes.account(accountId);
    this.changeTimes.account(accountId);
    this.options.onChange?.();
    for (const key of this.byAccount.keysOf(accountId)) this.links.delete(key);
    // A domain added, renamed or deleted changes which hosts are the app's, and which aliases
    // each host knows. These changes (pixels, domains, suspensions) are rare: the domains'
    // answers and the unknown aliases are all read again.
    this.domains.clear();
    this.clearMisses();
    this.names.invalidate();
  }

  /**
   * Some invalidations may have been lost (Redis was away): nothing cached before now is trusted.
   * The links are expired rather than dropped: each is read again before it is served, but while
   * the database cannot answer, its last known state is served rather than a 503.
   */
  everythingChanged(): void {
    this.changes.all();
    this.options.onChange?.();
    this.links.expireAll();
    this.domains.clear();
    this.clearMisses();
    this.names.invalidate();
  }

  /** Whether a snapshot that may be served is at hand, for visits the database cannot answer (/health). */
  async snapshotServes(): Promise<boolean> {
    return (await this.options.snapshot?.load()) != null;
  }

  /**
   * The database was found away outside a visit's read (a start during an outage): visits of
   * links not held are answered from the snapshot at once rather than after a connect attempt each.
   */
  databaseFailed(error: unknown): void {
    this.database.failed(error);
  }

  get sizes(): CacheSizes {
    let longestKey = 0;
    for (const map of [this.links, this.misses, this.domains]) {
      for (const key of map.keys()) longestKey = Math.max(longestKey, key.length);
    }
    return {
      links: this.links.size,
      misses: this.misses.size,
      domains: this.domains.size,
      domainNames: this.names.size,
      longestKey,
    };
  }

  private clearMisses(): void {
    this.misses.clear();
    this.missesByAlias.clear();
  }

  private store(key: string, link: RedirectLink | null): void {
    const now = this.now();
    if (link === null) {
      this.links.delete(key);
      this.misses.set(key, null, this.options.missTtlMs, now);
      this.missesByAlias.add(aliasOf(key), key);
    } else {
      this.misses.delete(key);
      this.links.set(key, link, this.options.ttlMs, now);
      this.byLink.add(link.id, key);
      this.byAccount.add(link.accountId, key);
    }
  }
}

/** The alias part of a key (`host alias`): host names hold no space. */
function aliasOf(key: string): string {
  return key.slice(key.lastIndexOf(' ') + 1);
}

/** An alias a link can have: anything else is unknown without a read, and never a key. */
function isAlias(alias: string): boolean {
  return alias.length <= LINK_LIMITS.aliasMax && ALIAS_PATTERN.test(alias);
}
