/**
 * The checker's politeness (docs/design/health.md): one request at a time to a host, the next
 * starting no sooner than `spacingMs` after the last ended, and at most `maxInFlight` requests
 * at once across hosts. A request waits for its host's turn before it takes an in-flight slot,
 * so a busy host never holds slots that other hosts could use.
 */
export class HostGate {
  private readonly tails = new Map<string, Promise<void>>();
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly spacingMs: number,
    private readonly maxInFlight: number,
  ) {}

  async run<T>(host: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(host) ?? Promise.resolve();
    let done!: () => void;
    const tail = before.then(() => new Promise<void>((resolve) => (done = resolve)));
    this.tails.set(host, tail);
    await before;
    try {
      await this.slot();
      try {
        return await work();
      } finally {
        this.free();
      }
    } finally {
      // The host's next request waits out the spacing; the last one leaves no entry behind.
      const timer = setTimeout(() => {
        if (this.tails.get(host) === tail) this.tails.delete(host);
        done();
      }, this.spacingMs);
      timer.unref();
    }
  }

  private async slot(): Promise<void> {
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next in line, or gives it back. */
  private free(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}
