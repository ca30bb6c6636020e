import { UnavailableError } from '../../core/shared/errors.ts';

export interface DatabaseGateOptions {
  /** While the database is away, how often a read may try it again. */
  probeMs: number;
  now: () => number;
  /** Told once when links start being answered from their last known state, and once when reads succeed again. */
  onChange?: (message: string) => void;
}

/**
 * What the cache's reads have learnt of the database: once a read fails with UnavailableError,
 * visits of links the cache still holds are answered from their last known state without
 * trying the database each (a cut network holds every attempt until the connect timeout), and
 * one read per probeMs tries it again; the first read that succeeds ends it (docs/design/outages.md).
 */
export class DatabaseGate {
  private probeAt: number | null = null;
  /** Stale answers in this outage. */
  private answeredStale = 0;

  constructor(private readonly options: DatabaseGateOptions) {}

  /** Whether the last read found the database away. */
  get away(): boolean {
    return this.probeAt !== null;
  }

  /**
   * Whether a read may go to the database now: always while it answers; while it is away, one
   * read per probeMs (this call takes the turn).
   */
  mayRead(): boolean {
    if (this.probeAt === null) return true;
    const now = this.options.now();
    if (now < this.probeAt) return false;
    this.probeAt = now + this.options.probeMs;
    return true;
  }

  failed(error: unknown): void {
    if (error instanceof UnavailableError) this.probeAt = this.options.now() + this.options.probeMs;
  }

  succeeded(): void {
    if (this.probeAt === null) return;
    this.probeAt = null;
    if (this.answeredStale === 0) return;
    this.options.onChange?.(
      `links are read from the database again (${this.answeredStale} visits were answered from their last known state)`,
    );
    this.answeredStale = 0;
  }

  /** A visit answered from a link's last known state. */
  servedStale(): void {
    if (this.answeredStale++ === 0)
      this.options.onChange?.('the database cannot be read: cached links are answered from their last known state');
  }
}
