import type { Recovered, SqlClickRecovery } from './click-recovery.ts';

export interface ClickLeaseOptions {
  /** This process's writer: the owner its click batches are recorded under. */
  owner: string;
  /** CLICK_WRITER_LEASE_MS: a writer silent for this long is taken for dead. */
  leaseMs: number;
  /** The lease could not be ended at the stop (the others recover its batches once it runs out). */
  onError(error: unknown): void;
  /** Batches of a dead writer were rolled up here. */
  onRecovered(recovered: Recovered): void;
}

/**
 * This process's lease on its click batches, and the roll-up of those of writers whose lease ran
 * out (a `kill -9`, a lost machine). Its round runs at start and every third of the lease, on the
 * server's scheduler (src/app/background-jobs.ts), so the database agrees with itself again
 * within about a lease and a third of a crash (docs/design/clicks.md, "Crash recovery").
 */
export class ClickLease {
  /** A round has renewed the lease: the stop ends it. */
  private held = false;

  constructor(
    private readonly recovery: SqlClickRecovery,
    private readonly options: ClickLeaseOptions,
  ) {}

  /** How often the round runs: a third of the lease, so that two rounds may fail before it runs out. */
  get roundMs(): number {
    return Math.max(1, Math.floor(this.options.leaseMs / 3));
  }

  /** One round: renew, then recover. A failure is the round's: it is told, and the next round tries again. */
  async round(): Promise<void> {
    await this.recovery.renew(this.options.owner, Date.now() + this.options.leaseMs);
    this.held = true;
    const recovered = await this.recovery.recover(Date.now());
    if (recovered.batches > 0) this.options.onRecovered(recovered);
  }

  /**
   * Ends the lease; call it once the rounds have stopped and this process's clicks are written:
   * what it could not write is then recovered by the others at once rather than after the lease.
   */
  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    try {
      await this.recovery.release(this.options.owner);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
