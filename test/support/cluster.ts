import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConf } from './nginx-conf.ts';
import { BIN, MAIN, ROOT, freePort, run, waitForOutput } from './processes.ts';
import { retiredSettingsWarning } from '../../src/app/retired-settings.ts';

export const NGINX = '/usr/sbin/nginx';
const OUTPUT_KEPT = 256 * 1024;

/** Whether Debian's nginx is there to balance a cluster (CI installs it: .ci/run). */
export function hasNginx(): boolean {
  return spawnSync(NGINX, ['-v']).status === 0;
}

export interface ClusterOptions {
  /** How many linkpix instances (2 by default). */
  instances?: number;
  /** A postgres:// URL every instance shares (migrated once, before they start). */
  databaseUrl: string;
  /** A redis:// URL every instance shares. */
  redisUrl: string;
  /** nginx's loopback port; a free one when absent. */
  port?: number;
  /** Over the instances' defaults (APP_URL is nginx's address unless given here); constants a test moves through tuningEnv (test-tuning.ts). */
  env?: Record<string, string>;
  /**
   * Every process in a process group of its own, out of the terminal's: a Ctrl-C then reaches
   * the caller alone, which stops them in order (`npm run cluster`). Tests leave them in theirs,
   * so that a test run interrupted takes them along.
   */
  detached?: boolean;
}

export interface Instance {
  index: number;
  /** http://127.0.0.1:<port>: the instance itself, past nginx. */
  base: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

export interface Cluster {
  /** nginx's address: the one URL clients use. */
  url: string;
  instances: Instance[];
  nginx: ChildProcess;
  /** Everything nginx printed (its error log). */
  nginxOutput(): string;
  /** nginx first (in-flight requests finish), then every instance with SIGTERM (each writes its clicks). */
  stop(): Promise<void>;
  /** Every process still running, at once (after a failure). */
  kill(): void;
}

/** The node flags of package.json's start script, so that instances run as `npm start` runs one. */
function startFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const flags = /node (.*?)\s*dist\/app\/main\.js/.exec(scripts.start ?? '')?.[1];
  if (flags === undefined) throw new Error('package.json\'s start script no longer runs "node … dist/app/main.js"');
  return flags.split(/\s+/).filter(Boolean);
}

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

/** Starts instance `index`; `spawned` learns of its process at once, so a failed start can still kill it. */
async function startInstance(
  index: number,
  env: Record<string, string>,
  detached: boolean,
  spawned: (child: ChildProcess) => void,
): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [...startFlags(), MAIN], {
    cwd: ROOT,
    detached,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  spawned(child);
  // The tail only: `npm run cluster` may run for days, with a log line per API request.
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-OUTPUT_KEPT));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = exitOf(child);
  await waitForOutput(child, /Server listening/);
  return { index, base: `http://127.0.0.1:${port}`, child, exited, output: () => output };
}

/** Resolves once nginx answers on `port`, or fails with what it printed if it exits first. */
async function nginxReady(nginx: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}:\n${output()}`);
    try {
      await (await fetch(`${url}/health`)).arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nginx did not answer on ${url}:\n${output()}`);
}

/**
 * Several linkpix instances (the compiled server, dist/) on one PostgreSQL and one Redis, behind
 * nginx started in the foreground with a generated configuration in a temporary directory.
 * `npm run cluster` and test/e2e/cluster.test.ts both start it here.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!hasNginx()) throw new Error(`nginx is not installed at ${NGINX} (apt-get install -y nginx)`);
  const retired = retiredSettingsWarning(options.env ?? {});
  if (retired !== null) throw new Error(`startCluster: ${retired}; move constants to tuningEnv`);
  const count = options.instances ?? 2;
  const detached = options.detached ?? false;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env = {
    APP_URL: url,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    // nginx alone is trusted: X-Forwarded-For from anywhere else is ignored.
    TRUST_PROXY: '127.0.0.1',
    // As startServerProcess: no destination checks over the network, none for a stop to wait on.
    HEALTH_CHECK_INTERVAL_HOURS: '0',
    ...options.env,
  };
  // Once, before any instance: each would otherwise wait for the others' migration lock at its start.
  const migrated = await run(process.execPath, [BIN, 'migrate'], env);
  if (migrated.code !== 0) throw new Error(`linkpix migrate failed:\n${migrated.stderr}`);

  const children: ChildProcess[] = [];
  let nginx: ChildProcess | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-cluster-'));
  const kill = () => {
    const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    // Not SIGKILL: nginx's worker would outlive its master, holding the port and our pipes.
    if (nginx && running(nginx)) nginx.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // nginx's workers run as nobody when it is started as root: they must reach its temp paths.
    chmodSync(dir, 0o755);
    const instances = await Promise.all(
      Array.from({ length: count }, (_, i) => startInstance(i, env, detached, (child) => children.push(child))),
    );
    writeFileSync(
      join(dir, 'nginx.conf'),
      nginxConf({ dir, port, upstreams: instances.map((i) => Number(new URL(i.base).port)) }),
    );
    const started = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'], {
      detached,
    });
    nginx = started;
    const nginxExited = exitOf(started);
    let nginxOutput = '';
    started.stdout.on('data', (d) => (nginxOutput += d));
    started.stderr.on('data', (d) => (nginxOutput += d));
    await nginxReady(started, url, () => nginxOutput);

    const stop = async () => {
      if (started.exitCode === null && started.signalCode === null) {
        started.kill('SIGQUIT'); // graceful: requests in flight are answered
        await nginxExited;
      }
      const running = instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
      for (const instance of running) instance.child.kill('SIGTERM');
      const exits = await Promise.all(running.map((i) => i.exited));
      rmSync(dir, { recursive: true, force: true });
      const failed = exits.flatMap((e, k) =>
        e.code === 0 ? [] : [`instance ${running[k]!.index}: ${e.code ?? e.signal}\n${running[k]!.output()}`],
      );
      if (failed.length > 0) throw new Error(`instances did not stop cleanly:\n${failed.join('\n')}`);
    };
    return { url, instances, nginx: started, nginxOutput: () => nginxOutput, stop, kill };
  } catch (error) {
    kill();
    throw error;
  }
}
