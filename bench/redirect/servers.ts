import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Running {
  name: string;
  child: ChildProcess;
  port: number;
  origin: string;
  /** Date.now() just before the process was spawned. */
  spawnedAt: number;
  /** What the process wrote to stderr (and stdout), for when it fails. */
  output(): string;
  /** Peak resident set so far (VmHWM), in bytes. */
  peakRss(): number;
  /** /proc/<pid>/status memory lines now (VmRSS, RssAnon, RssFile…), in kB. */
  memory(): Record<string, number>;
  /** SIGTERM, then waits for the exit; resolves to the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

/** A port nobody listens on right now (there is a small race; it is a benchmark). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node [nodeArgs] <ROOT>/script` (JavaScript: the bench runs the compiled server) in `cwd` with only PATH, HOME and `env`,
 * and waits until GET readyPath answers. The cwd is the bench's own directory, so a developer's
 * ./.env (which main.ts reads) cannot change what is measured.
 */
export async function startServer(opts: {
  name: string;
  script: string;
  cwd: string;
  env: (port: number) => Record<string, string>;
  readyPath: string;
  nodeArgs?: string[];
}): Promise<Running> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), join(ROOT, opts.script)], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env(port), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const origin = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (gone) throw new Error(`${opts.name} exited during start-up:\n${output}`);
    if (await answers(origin + opts.readyPath)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} did not answer ${opts.readyPath} within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    name: opts.name,
    child,
    port,
    origin,
    spawnedAt,
    output: () => output,
    peakRss: () => vmHwm(child.pid!),
    memory: () => procMemory(child.pid!),
    async stop(timeoutMs = 60_000) {
      if (gone) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

/** Linux: the process's peak resident set (VmHWM in /proc/<pid>/status), in bytes. */
export function vmHwm(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

export function procMemory(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^((?:Vm|Rss)\w+):\s+(\d+)\s+kB/gm))
    out[m[1]!] = Number(m[2]);
  return out;
}

/**
 * CPU time used so far by a process's threads, in seconds: its main thread as "main", the others
 * by thread name (Node's worker and libuv threads are all called "node": summed as "other"); and
 * "main-sys", the main thread's time in the kernel, which is part of "main".
 */
export function threadCpuSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // pid (comm) state … : comm may hold spaces, so split after its closing parenthesis.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const name = tid === String(pid) ? 'main' : comm === 'node' ? 'other' : comm;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of stat)
    out[name] = (out[name] ?? 0) + ticks / CLOCK_TICKS;
    // Of which in the kernel (socket reads and writes, wake-ups): not added to "all".
    if (name === 'main') out['main-sys'] = Number(fields[12]) / CLOCK_TICKS;
  }
  return out;
}

/**
 * CPU time used so far by the machine's processes sorted into groups, in seconds: each process
 * goes to the first group whose test accepts its command name and command line (a PostgreSQL
 * backend's line names its database), or to none. A process that ended meanwhile is missed.
 */
export function processCpuSeconds(
  groups: Record<string, (comm: string, cmdline: string) => boolean>,
): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(Object.keys(groups).map((g) => [g, 0]));
  for (const { group, seconds } of cpuByProcess(groups).values()) out[group]! += seconds;
  return out;
}

/** As processCpuSeconds, per process (keyed by pid): a run's figures can then leave out the processes that ended meanwhile. */
export function cpuByProcess(
  groups: Record<string, (comm: string, cmdline: string, pid: number) => boolean>,
): Map<string, { group: string; seconds: number }> {
  const out = new Map<string, { group: string; seconds: number }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    let cmdline: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const group = Object.keys(groups).find((g) => groups[g]!(comm, cmdline, Number(pid)));
    if (group === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(pid, { group, seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS });
  }
  return out;
}

/**
 * The whole machine's CPU time so far, busy and idle, in seconds (all cores summed). `steal`
 * (part of busy) is time the hypervisor gave another guest while this VM wanted to run: on a
 * shared host it slows both servers, not always equally.
 */
export function machineCpuSeconds(): { busy: number; idle: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const all = v.reduce((a, b) => a + b, 0);
  return { busy: (all - idle) / CLOCK_TICKS, idle: idle / CLOCK_TICKS, steal: (v[7] ?? 0) / CLOCK_TICKS };
}

// USER_HZ: 100 on every Linux this bench runs on (getconf CLK_TCK).
const CLOCK_TICKS = 100;
