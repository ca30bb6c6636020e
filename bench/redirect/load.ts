import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { visitRequest, type LinkSet } from './traffic.ts';

export interface LoadSpec {
  /** http://127.0.0.1:port */
  origin: string;
  connections: number;
  threads: number;
  durationS: number;
  /** Seconds at the end when connections send nothing new (wrk.lua): nothing is left in flight. */
  tailS: number;
  /** Links in the database, and how many distinct ones are requested. */
  links: number;
  hot: number;
  /** Steps into the cycle of `hot` requests to start at: step s of thread t is request s * threads + t. */
  offset?: number;
  /** A directory for the generated request file. */
  workDir: string;
  /** Which links are visited (traffic.ts); all by default. */
  set?: LinkSet;
}

export interface LoadResult {
  generator: string;
  /** The run, and its quiet tail (not counted in rps). */
  durationS: number;
  tailS: number;
  /** Responses received, of every kind. */
  requests: number;
  rps: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; mean: number; max: number };
  status: { '2xx': number; '3xx': number; '4xx': number; '5xx': number; other: number };
  /** Socket errors and timeouts; wrk's own count of statuses ≥ 400 is in status. */
  errors: { connect: number; read: number; write: number; timeout: number };
  /** Requests sent: more than `requests` if some were still in flight when the generator stopped. */
  sent: number;
  /** Steps each thread made: the run sent every request of the first min × threads from its offset. */
  sentPerThread: number[];
}

export type Generator = { name: 'wrk'; version: string } | { name: 'autocannon'; version: string };

/** wrk (Debian: apt-get install wrk) when on the PATH, else autocannon if installed, else null. */
export async function findGenerator(prefer?: string): Promise<Generator | null> {
  if (prefer !== 'autocannon') {
    const probe = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
    if (!probe.error) return { name: 'wrk', version: (probe.stdout + probe.stderr).split('\n')[0]!.trim() };
    if (prefer === 'wrk') return null;
  }
  try {
    const manifest = createRequire(import.meta.url).resolve('autocannon/package.json');
    return { name: 'autocannon', version: (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version };
  } catch {
    return null;
  }
}

export async function runLoad(generator: Generator, spec: LoadSpec): Promise<LoadResult> {
  return generator.name === 'wrk' ? runWrk(spec, generator.version) : runAutocannon(spec, generator.version);
}

const WRK_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), 'wrk.lua');

async function runWrk(spec: LoadSpec, version: string): Promise<LoadResult> {
  const file = join(spec.workDir, `requests-${spec.links}-${spec.hot}-${spec.set ?? 'all'}.tsv`);
  const lines: string[] = [];
  for (let j = 0; j < spec.hot; j++) {
    const { path, headers } = visitRequest(j, spec.links, spec.hot, spec.set);
    lines.push([path, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\t'));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  const args = [
    '-t',
    String(spec.threads),
    '-c',
    String(spec.connections),
    '-d',
    `${spec.durationS}s`,
    '--timeout',
    '5s',
    '-s',
    WRK_SCRIPT,
    spec.origin,
    '--',
    file,
    String(spec.threads),
    String(spec.durationS),
    String(spec.tailS),
    String(spec.offset ?? 0),
  ];
  const { code, stdout, stderr } = await run('wrk', args);
  const line = stdout.split('\n').find((l) => l.startsWith('LPBENCH_RESULT '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
  const r = JSON.parse(line.slice('LPBENCH_RESULT '.length)) as {
    duration_us: number;
    requests: number;
    sent: number;
    sent_per_thread: number[];
    errors: { connect: number; read: number; write: number; status: number; timeout: number };
    latency_us: { p50: number; p90: number; p99: number; p999: number; mean: number; max: number };
    status: { '2xx': number; '3xx': number; '4xx': number; '5xx': number; other: number };
  };
  const ms = (us: number) => us / 1000;
  const durationS = r.duration_us / 1e6;
  return {
    generator: version,
    durationS,
    tailS: spec.tailS,
    requests: r.requests,
    // The quiet tail only lets the last answers in: the rate is over the time requests were sent.
    rps: r.requests / (durationS - spec.tailS),
    latencyMs: {
      p50: ms(r.latency_us.p50),
      p90: ms(r.latency_us.p90),
      p99: ms(r.latency_us.p99),
      p999: ms(r.latency_us.p999),
      mean: ms(r.latency_us.mean),
      max: ms(r.latency_us.max),
    },
    status: r.status,
    errors: { connect: r.errors.connect, read: r.errors.read, write: r.errors.write, timeout: r.errors.timeout },
    sent: r.sent,
    sentPerThread: r.sent_per_thread,
  };
}

function run(cmd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Only what this file uses of autocannon (which ships no types). */
interface AutocannonResult {
  duration: number;
  latency: { p50: number; p90: number; p99: number; p99_9: number; average: number; max: number };
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

/**
 * The same traffic through autocannon, in this process. It has no quiet tail: requests in flight
 * when it stops count as sent, not received (see LoadResult.sent). Exported with the module
 * injected so it can be exercised without autocannon installed here.
 */
export async function runAutocannonWith(autocannon: Autocannon, spec: LoadSpec, version: string): Promise<LoadResult> {
  const requests = Array.from({ length: spec.hot }, (_, j) => visitRequest(j, spec.links, spec.hot, spec.set));
  const status = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 };
  let sent = 0;
  let next = (spec.offset ?? 0) * spec.threads; // one counter for all clients: as wrk's threads taking turns
  const result = await autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.durationS,
    timeout: 5,
    requests: [
      {
        setupRequest(req: Record<string, unknown>) {
          const { path, headers } = requests[next++ % requests.length]!;
          sent++;
          return { ...req, method: 'GET', path, headers };
        },
        onResponse(code: number) {
          if (code >= 300 && code < 400) status['3xx']++;
          else if (code >= 200 && code < 300) status['2xx']++;
          else if (code >= 400 && code < 500) status['4xx']++;
          else if (code >= 500) status['5xx']++;
          else status.other++;
        },
      },
    ],
  });
  const received = Object.values(status).reduce((a, b) => a + b, 0);
  return {
    generator: `autocannon ${version}`,
    durationS: result.duration,
    tailS: 0,
    requests: received,
    rps: received / result.duration,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      p999: result.latency.p99_9,
      mean: result.latency.average,
      max: result.latency.max,
    },
    status,
    errors: { connect: 0, read: result.errors - result.timeouts, write: 0, timeout: result.timeouts },
    sent,
    sentPerThread: Array.from({ length: spec.threads }, () => Math.floor(sent / spec.threads)),
  };
}

async function runAutocannon(spec: LoadSpec, version: string): Promise<LoadResult> {
  const name = 'autocannon'; // a variable: the package is optional, and only loaded here
  const mod = (await import(name)) as { default: Autocannon };
  return runAutocannonWith(mod.default, spec, version);
}
