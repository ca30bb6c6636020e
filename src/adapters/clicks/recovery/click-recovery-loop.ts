import type { Recovered, SqlClickRecovery } from './click-recovery.ts';

export interface ClickRecoveryLoopOptions {
  /** This process's writer: the owner its click batches are recorded under. */
  owner: string;
  /** CLICK_WRITER_LEASE_MS: renewed every third of it; a writer silent for this long is taken for dead. */
  leaseMs: number;
  onError(error: unknown): void;
  /** Batches of a dead writer were rolled up here. */
  onRecovered(recovered: Recovered): void;
  now?: () => number;
}

/**
 * Keeps this process's lease on its click batches, and rolls up those of writers whose lease
 * ran out (a `kill -9`, a lost machine): at start and every third of the lease, so the database
 * agrees with itself again within about a lease and a third of a crash (docs/adr/0034).
 */
export class ClickRecoveryLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly recovery: SqlClickRecovery,
    private readonly options: ClickRecoveryLoopOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Renews the lease at once and recovers; then again every third of the lease. */
  start(): Promise<void> {
    if (this.timer !== null || this.stopped) return this.running;
    this.timer = setInterval(() => void this.tick(), Math.max(1, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref();
    return this.tick();
  }

  /** One round: renew, then recover. Rounds never overlap; failures are reported and retried next round. */
  tick(): Promise<void> {
    this.running = this.running.then(async () => {
      if (this.stopped) return;
      try {
        await this.recovery.renew(this.options.owner, this.now() + this.options.leaseMs);
        const recovered = await this.recovery.recover(this.now());
        if (recovered.batches > 0) this.options.onRecovered(recovered);
      } catch (error) {
        this.options.onError(error);
      }
    });
    return this.running;
  }

  /**
   * Stops the rounds and ends the lease; call it once this process's clicks are written: what
   * it could not write is then recovered by the others at once rather than after the lease.
   */
  async stop(): Promise<void> {
    const started = this.timer !== null;
    this.stopped = true;
    if (!started) return;
    clearInterval(this.timer!);
    this.timer = null;
    await this.running;
    try {
      await this.recovery.release(this.options.owner);
    } catch (error) {
      this.options.onError(error);
    }
  }
}
