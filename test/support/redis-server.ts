import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort, waitForOutput } from './processes.ts';

/** Whether redis-server can be started here (tests that stop one skip without it). */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;

/**
 * A redis-server of a test's own on a free loopback port (never the shared one), with nothing
 * saved: stopped and started again, it comes back empty, as a restarted cache would.
 */
export class OwnRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
    ]);
    this.child = child;
    await waitForOutput(child, /Ready to accept connections/);
  }

  /** Once it has exited; SIGKILL for a Redis that dies with no goodbye to its clients. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const stopping = this.child;
    this.child = null;
    if (!stopping || stopping.exitCode !== null) return;
    const exited = new Promise((resolve) => stopping.once('exit', resolve));
    stopping.kill(signal);
    await exited;
  }

  kill(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
  }
}
