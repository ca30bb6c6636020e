import { performance } from 'node:perf_hooks';

export interface HealthProbeOptions {
  /** The pause between one answer and the next request (default 10 ms). */
  everyMs?: number;
  /** A request not answered after this long is given up and counted as a failure (default 10 s). */
  timeoutMs?: number;
}

export interface HealthProbeResult {
  /** The latency of every answered request, in ms, in the order they were sent. */
  samples: number[];
  /** Requests that failed (no answer in time, a refused connection, a status other than 200). */
  failures: string[];
  p50: number;
  p99: number;
  max: number;
}

/**
 * Asks a URL (a server's /health) one request after another while a test loads the server,
 * timing each from sending to the end of its body: a request that waits shows an event loop
 * held by something else. One probe per load; several loads (QR codes, imports) may run under
 * one probe. Usage: `const probe = HealthProbe.start(url); …load…; const { p99 } = await probe.stop();`
 */
export class HealthProbe {
  private readonly samples: number[] = [];
  private readonly failures: string[] = [];
  private stopped = false;
  private readonly running: Promise<void>;

  private constructor(
    private readonly url: string,
    private readonly options: Required<HealthProbeOptions>,
  ) {
    this.running = this.loop();
  }

  static start(url: string, options: HealthProbeOptions = {}): HealthProbe {
    return new HealthProbe(url, { everyMs: options.everyMs ?? 10, timeoutMs: options.timeoutMs ?? 10_000 });
  }

  /** Stops after the request in flight and tells what was measured. */
  async stop(): Promise<HealthProbeResult> {
    this.stopped = true;
    await this.running;
    const samples = [...this.samples];
    return { samples, failures: [...this.failures], p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.length ? Math.max(...samples) : NaN };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const started = performance.now();
      try {
        const res = await fetch(this.url, { signal: AbortSignal.timeout(this.options.timeoutMs) });
        await res.arrayBuffer();
        if (res.status === 200) this.samples.push(performance.now() - started);
        else this.failures.push(`status ${res.status}`);
      } catch (error) {
        this.failures.push(error instanceof Error ? error.message : String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.everyMs));
    }
  }
}

/** The nearest-rank percentile (p in 0–100) of the samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
