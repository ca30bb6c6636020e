/** Runs a round every intervalMs, at once when kicked, again while a round says there is more; never two at once. */
export class Pump {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(this.intervalMs);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  private run(): void {
    if (this.stopped || this.running) return;
    this.again = false;
    this.running = Promise.resolve()
      .then(this.round)
      .then(
        (more) => more,
        (error: unknown) => {
          this.onError(error);
          return false;
        },
      )
      .then((more) => {
        this.running = null;
        if (!this.stopped) this.schedule(more || this.again ? 0 : this.intervalMs);
      });
  }
}
