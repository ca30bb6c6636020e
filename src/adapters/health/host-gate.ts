/**
 * The checker's politeness (docs/design/health.md): one request at a time to a host, the next
 * starting no sooner than `spacingMs` after the last ended, and at most `maxInFlight` requests
 * at once across hosts. A request waits for its host's turn before it takes an in-flight slot,
 * so a busy host never holds slots that other hosts could use. A wait whose signal is aborted
 * ends at once (the round is stopping): it rejects, and its turn passes to the next without the
 * spacing, since it sent nothing.
 */
export class HostGate {
  private readonly tails = new Map<string, Promise<void>>();
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly spacingMs: number,
    private readonly maxInFlight: number,
  ) {}

  async run<T>(host: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const before = this.tails.get(host) ?? Promise.resolve();
    let done!: () => void;
    const turn = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => turn);
    this.tails.set(host, tail);
    let sent = false;
    try {
      await untilAborted(before, signal);
      await this.slot(signal);
      sent = true;
      try {
        return await work();
      } finally {
        this.free();
      }
    } finally {
      // The host's next request waits out the spacing; the last one leaves no entry behind.
      const end = () => {
        if (this.tails.get(host) === tail) this.tails.delete(host);
        done();
      };
      if (sent) setTimeout(end, this.spacingMs).unref();
      else void before.then(end);
    }
  }

  private slot(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(granted);
        if (at === -1) return;
        this.waiting.splice(at, 1);
        reject(signal!.reason as Error);
      };
      this.waiting.push(granted);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Hands the slot straight to the next in line, or gives it back. */
  private free(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}

/** `work`, or a rejection as soon as `signal` is aborted. */
function untilAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return work;
  signal.throwIfAborted();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
