import type { ImportLeases, LeaseSubject } from './import-leases.ts';

/** How long a lease holds without being renewed: a crashed instance's workspace and person are free again after it. */
export const LEASE_MS = 60_000;
/** How often a running import renews its leases, by a timer and, when one is due, between batches. */
const RENEW_MS = LEASE_MS / 3;

/**
 * The import no longer holds its lease: another instance took it over once it had expired, or
 * the row is gone. It stops between batches; those written before stay (docs/api.md §15).
 */
export class ImportLeaseLostError extends Error {
  constructor() {
    super(
      'The import stopped midway: it no longer holds its lease (another import took it over). The batches written before stay; importing the file again skips them.',
    );
  }
}

export interface TicketDeps {
  leases: ImportLeases;
  /** This instance's count of running imports. */
  slots: { take(): boolean; give(): void };
  /** The refusal when the instance has no slot free. */
  full: () => Error;
  now: () => number;
  onError: (error: unknown) => void;
}

/**
 * One import's hold on its leases (ImportSlots.claim), then on an instance slot (start), until
 * `release`, which every path of the caller reaches.
 */
export class ImportTicket {
  private slot = false;
  private lost = false;
  private released = false;
  private confirmedAt = 0;
  private renewal: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly deps: TicketDeps,
    private readonly subjects: readonly LeaseSubject[],
    private readonly holder: string,
  ) {}

  /** The file is on disk: this instance's slot, and the leases pushed on for the import's time. */
  async start(): Promise<void> {
    if (!this.deps.slots.take()) throw this.deps.full();
    this.slot = true;
    await this.renew();
    if (this.lost) throw new ImportLeaseLostError();
    // Renewed while the import waits on its reading thread too, when no batch comes to renew it.
    this.renewal = setInterval(() => {
      this.renew().catch(this.deps.onError);
    }, RENEW_MS);
    this.renewal.unref();
  }

  /**
   * Before each batch is written: the leases, renewed when due, are still this import's; else
   * ImportLeaseLostError. What the database says decides, not this instance's clock.
   */
  async hold(): Promise<void> {
    if (!this.lost && this.deps.now() - this.confirmedAt >= RENEW_MS) await this.renew();
    if (this.lost) throw new ImportLeaseLostError();
  }

  private renew(): Promise<void> {
    this.renewing ??= this.extend().finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async extend(): Promise<void> {
    const at = this.deps.now();
    for (const subject of this.subjects) {
      if (!(await this.deps.leases.extend(subject, this.holder, at + LEASE_MS))) {
        this.lost = true;
        return;
      }
    }
    this.confirmedAt = at;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.renewal) clearInterval(this.renewal);
    if (this.slot) this.deps.slots.give();
    // A lease that cannot be given back now expires by itself.
    for (const subject of this.subjects) await this.deps.leases.release(subject, this.holder).catch(this.deps.onError);
  }
}
