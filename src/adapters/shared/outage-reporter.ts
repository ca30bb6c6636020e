/** Where an outage is told: a message, and the error that began it. */
export type OutageLog = (message: string, error?: unknown) => void;

/**
 * Tells an operator that a dependency went away and that it came back — once each — instead
 * of logging every retry's failure: a client reconnecting through an outage fails again and
 * again, and a log line per attempt buries everything else.
 */
export class OutageReporter {
  private downSince: number | null = null;
  private repeats = 0;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly log: OutageLog,
    private readonly now: () => number = Date.now,
  ) {}

  get down(): boolean {
    return this.downSince !== null;
  }

  /** Every failure told since start, logged or not (GET /metrics). */
  get errors(): number {
    return this.failures;
  }

  failed(error: unknown): void {
    this.failures++;
    if (this.downSince !== null) {
      this.repeats++;
      return;
    }
    this.downSince = this.now();
    this.repeats = 0;
    this.log(`lost the connection to ${this.name}; reconnecting as needed`, error);
  }

  recovered(): void {
    if (this.downSince === null) return;
    const seconds = Math.round((this.now() - this.downSince) / 1000);
    this.downSince = null;
    this.log(`connected to ${this.name} again after ${seconds} s (${this.repeats} further errors not logged)`);
  }
}
