/**
 * How long a server keeps a cheap request waiting while heavy work runs: GET /health asked back
 * to back over keep-alive connections from a thread of its own (so that the test's own work,
 * uploading files say, never delays a sample), each answer timed, and the tail (p99, max) read at
 * the end. The heavy work is any list of tasks (imports, QR codes…), started together once the
 * probe runs, so that each part of the "no request holds the event loop" target adds its own.
 */
import { Worker } from 'node:worker_threads';

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

// The probe thread (plain JavaScript, evaluated): `probes` loops, each a request at a time with a
// short pause; it answers 'ready' once its connections are open and the samples when told to stop.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, probes, pauseMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: probes });
const times = [];
let running = true;
let failure = null;
const ask = () => new Promise((resolve, reject) => {
  const started = performance.now();
  http.get(url, { agent }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error('/health answered ' + res.statusCode))));
  }).on('error', reject);
});
const loop = async () => {
  while (running) {
    const ms = await ask();
    if (running) times.push(ms);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
};
Promise.all(Array.from({ length: probes }, ask)).then(() => {
  parentPort.postMessage({ kind: 'ready' });
  const loops = Array.from({ length: probes }, () => loop().catch((e) => (failure ??= String(e))));
  parentPort.once('message', async () => {
    running = false;
    await Promise.all(loops);
    agent.destroy();
    parentPort.postMessage({ kind: 'done', times, failure });
  });
}, (e) => parentPort.postMessage({ kind: 'done', times, failure: String(e) }));
`;

/**
 * Runs `tasks` together while the probe thread asks /health; answers the latency summary of the
 * samples taken while the tasks ran, and the tasks' results. A sample is timed from the moment
 * its request is written to the end of its answer.
 */
export async function healthWhile<T>(
  base: string,
  tasks: Array<HeavyTask<T>>,
  options: { probes?: number; pauseMs?: number } = {},
): Promise<{ latency: LatencySummary; results: T[] }> {
  const { probes = 2, pauseMs = 5 } = options;
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${base}/health`, probes, pauseMs } });
  const messages: Array<{ kind: string; times?: number[]; failure?: string | null }> = [];
  let wake: (() => void) | null = null;
  worker.on('message', (m) => {
    messages.push(m);
    wake?.();
  });
  const next = async () => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return messages.shift()!;
  };
  try {
    const ready = await next();
    if (ready.kind !== 'ready') throw new Error(`the probe failed before the load: ${ready.failure}`);
    const results = await Promise.all(tasks.map((task) => task()));
    worker.postMessage('stop');
    const done = await next();
    if (done.failure) throw new Error(`the probe failed: ${done.failure}`);
    return { latency: summary(done.times ?? []), results };
  } finally {
    await worker.terminate();
  }
}
