import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './servers.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  selfPercent: number;
  totalPercent: number;
  fn: string;
  where: string;
}

/**
 * The functions a .cpuprofile spent most samples in: self time, and time with callees
 * ("total", counted once per sample even when a function recurses). `window` keeps only the
 * samples between these milliseconds after the profile's start (the measured run, not start-up).
 */
export function topOfProfile(
  file: string,
  window?: { fromMs: number; toMs: number },
  limit = 25,
): { busyPercent: number; lines: ProfileLine[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => {
    const url = n.callFrame.url.startsWith('file://')
      ? relative(ROOT, new URL(n.callFrame.url).pathname)
      : n.callFrame.url;
    return `${n.callFrame.functionName || '(anonymous)'}\t${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  let wall = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at / 1000 < window.fromMs || at / 1000 > window.toMs)) return;
    const node = byId.get(id);
    wall += dt;
    if (!node || node.callFrame.functionName === '(idle)') return;
    all += dt;
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = node; n; n = byId.get(parent.get(n.id) ?? -1)) {
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const lines = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([k, v]) => {
      const [fn, where] = k.split('\t') as [string, string];
      return { selfPercent: (100 * v) / all, totalPercent: (100 * (total.get(k) ?? 0)) / all, fn, where };
    });
  return { busyPercent: (100 * all) / wall, lines };
}

/** When a profile began (µs, the clock every thread's profile of one process shares). */
export function profileStartUs(file: string): number {
  return (JSON.parse(readFileSync(file, 'utf8')) as Profile).startTime;
}

/**
 * The main thread's profile in a --cpu-prof-dir (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile):
 * tsx's loader hooks run in a worker thread of their own, which writes one too.
 */
export function mainThreadProfile(dir: string): string | null {
  const files = readdirSync(dir)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .sort();
  return files.length ? join(dir, files[files.length - 1]!) : null;
}

/** The profiles of the server's worker threads (CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile, thread > 0). */
export function workerProfiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.\d+\.[1-9]\d*\.\d+\.cpuprofile$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}
