import type { DomainNameSource } from '../../core/redirect/redirect-link.ts';

export interface KnownDomainsOptions {
  /** How old the list may get before a read starts loading it again in the background. */
  refreshMs: number;
  onError?: (error: unknown) => void;
  now?: () => number;
}

/**
 * The custom domain names, held in memory so that any other Host is known at once to be the
 * app's, without a read or a cache entry of its own. Loaded before first use, again when told
 * (a domain added, renamed or deleted, on this instance or another), and when older than
 * refreshMs, since a broadcast can be missed.
 */
export class KnownDomains {
  private names: ReadonlySet<string> | null = null;
  private certifiable: ReadonlySet<string> = new Set();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** Invalidations so far, and how many of them the list in hand has seen. */
  private changes = 0;
  private seen = 0;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly source: DomainNameSource,
    private readonly options: KnownDomainsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /**
   * Whether the host is a custom domain's name; undefined when that is not known yet: before the
   * first load, and for a name not in the list while a change is being loaded (it may be new).
   */
  has(host: string): boolean | undefined {
    if (this.names === null) return undefined;
    if (this.names.has(host)) return true;
    return this.seen === this.changes ? false : undefined;
  }

  /**
   * Resolves once the list is loaded and has seen every change told so far; rejects if that
   * load failed. A list merely old is loaded again in the background.
   */
  async ready(): Promise<void> {
    if (this.names === null || this.seen !== this.changes) return this.load();
    if (this.now() - this.loadedAt >= this.options.refreshMs) this.load().catch(this.onError);
  }

  /**
   * Whether a certificate may be issued for the custom domain's name (docs/operations.md, TLS);
   * undefined before the first load and while a change is being loaded.
   */
  mayCertify(host: string): boolean | undefined {
    // Unlike has(), a name in hand is not trusted while a change loads: the change may take it away.
    if (this.names === null || this.seen !== this.changes) return undefined;
    return this.certifiable.has(host);
  }

  /** The list changed somewhere: load it again. */
  invalidate(): void {
    this.changes++;
    if (!this.loading) this.load().catch(this.onError);
  }

  get size(): number {
    return this.names?.size ?? 0;
  }

  private load(): Promise<void> {
    this.loading ??= this.read().then(
      () => {
        this.loading = null;
        // A change told while the list was being read: it may not be in what was read.
        if (this.seen !== this.changes) this.load().catch(this.onError);
      },
      (error: unknown) => {
        this.loading = null;
        // The old list stays, and counts as current for another refreshMs: while the database
        // is away, visits of cached links must not wait for it, nor each start a read that fails.
        if (this.names !== null) {
          this.seen = this.changes;
          this.loadedAt = this.now();
        }
        throw error;
      },
    );
    return this.loading;
  }

  private async read(): Promise<void> {
    const changes = this.changes;
    const [names, certifiable] = await Promise.all([this.source.domainNames(), this.source.certifiableNames?.() ?? []]);
    this.names = new Set(names);
    this.certifiable = new Set(certifiable);
    this.loadedAt = this.now();
    this.seen = changes;
  }
}
