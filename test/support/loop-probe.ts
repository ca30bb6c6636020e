/**
 * How long a server keeps a cheap request waiting while heavy work runs: GET /health sampled
 * back to back over keep-alive connections, each answer timed, and the tail (p99, max) read at
 * the end. The heavy work is any list of tasks (imports, QR codes…), started together once
 * the probe runs, so that each part of the "no request holds the event loop" target adds its own.
 */
import { Agent, request } from 'undici';

export interface LatencySummary {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

function summary(ms: number[]): LatencySummary {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { samples: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

/** A heavy task: what it does, and its result for the test to check afterwards. */
export type HeavyTask<T = unknown> = () => Promise<T>;

/**
 * Runs `tasks` together while `probes` loops ask /health one after another, each with a short
 * pause; answers the latency summary of the samples taken while any task ran, and the tasks'
 * results. A sample is timed from the moment its request is written to the end of its answer.
 */
export async function healthWhile<T>(base: string, tasks: Array<HeavyTask<T>>, options: { probes?: number; pauseMs?: number } = {}): Promise<{ latency: LatencySummary; results: T[] }> {
  const { probes = 2, pauseMs = 5 } = options;
  const agent = new Agent({ connections: probes, keepAliveTimeout: 60_000 });
  const times: number[] = [];
  let running = true;
  const probe = async () => {
    while (running) {
      const started = performance.now();
      const res = await request(`${base}/health`, { dispatcher: agent });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`/health answered ${res.statusCode}`);
      if (running) times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  // Connections opened before the load, so that no sample pays a connect.
  await Promise.all(Array.from({ length: probes }, () => request(`${base}/health`, { dispatcher: agent }).then((r) => r.body.text())));
  let failure: unknown = null;
  const probing = Array.from({ length: probes }, () => probe().catch((error: unknown) => (failure ??= error)));
  try {
    const results = await Promise.all(tasks.map((task) => task()));
    if (failure !== null) throw failure;
    return { latency: summary(times), results };
  } finally {
    running = false;
    await Promise.all(probing);
    await agent.close();
  }
}
