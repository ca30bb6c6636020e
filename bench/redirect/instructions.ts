import { spawn } from 'node:child_process';

/**
 * User-space instructions a process executes over `seconds`, counted by `perf stat` (Debian's
 * linux-perf): its main thread alone, and all its threads. Instructions, unlike time, barely
 * move with what else a busy VM runs, so they show a change of a few percent that req/s hides.
 * Null when perf is missing or cannot count here (some VMs expose no hardware counters).
 */
export async function countInstructions(pid: number, seconds: number): Promise<{ main: number; all: number } | null> {
  const [main, all] = await Promise.all([
    perfStat(['-t', String(pid)], seconds),
    perfStat(['-p', String(pid)], seconds),
  ]);
  return main === null || all === null ? null : { main, all };
}

function perfStat(target: string[], seconds: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(
      'perf',
      ['stat', '-x', ',', '-e', 'instructions:u', ...target, '--', 'sleep', String(seconds)],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', () => resolve(null));
    child.on('close', () => {
      // CSV: value,unit,event,… ; "<not supported>" or "<not counted>" when it could not count.
      const line = stderr.split('\n').find((l) => l.includes('instructions'));
      const value = line ? Number(line.split(',')[0]) : NaN;
      resolve(Number.isFinite(value) && value > 0 ? value : null);
    });
  });
}
