import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * `--pin`: the servers measured on CPU 0, everything else (this bench and its load generator,
 * PostgreSQL, Redis) on the others, with taskset (util-linux). Unpinned, PostgreSQL's backends
 * and Redis run on the server's cores between its turns, and the same server code then costs
 * more CPU time a request (its caches refilled after them); pinned, a server's CPU a request is
 * what its own work costs. Changes the affinity of the machine's PostgreSQL and Redis, so it is
 * given back to every CPU afterwards (`release`).
 */
export class Pinning {
  private readonly all = `0-${availableParallelism() - 1}`;
  private readonly rest = `1-${availableParallelism() - 1}`;

  constructor() {
    if (availableParallelism() < 2) throw new Error('--pin needs two CPUs or more');
    if (spawnSync('taskset', ['-V']).status !== 0) throw new Error('--pin needs taskset (Debian: util-linux)');
  }

  /** This bench (and so the load generator it starts), PostgreSQL's processes and Redis off CPU 0. */
  begin(): void {
    affinity(process.pid, this.rest);
    // A backend may end between the listing and taskset: not an error.
    for (const pid of services()) affinity(pid, this.rest, false);
  }

  /** A server measured, all its threads, onto CPU 0 (threads it starts later inherit it). */
  server(pid: number): void {
    affinity(pid, '0');
  }

  release(): void {
    for (const pid of services()) affinity(pid, this.all, false);
    affinity(process.pid, this.all, false);
  }
}

function affinity(pid: number, cpus: string, strict = true): void {
  const done = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
  if (done.status !== 0 && strict) throw new Error(`taskset -a -p -c ${cpus} ${pid}: ${done.stderr.trim()}`);
}

/** The pids of PostgreSQL's processes (backends the postmaster starts later inherit its CPUs) and Redis's. */
function services(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm.startsWith('postgres') || comm.startsWith('postmaster') || comm === 'redis-server')
        found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
