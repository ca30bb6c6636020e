import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { retiredSettingsWarning } from '../../src/app/retired-settings.ts';
import { TEST_TUNING_VARIABLE, type Tuning } from '../../src/app/tuning.ts';
import { testDatabaseUrl } from './test-database-url.ts';
import { tuningEnv } from './test-tuning.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'linkpix.js');
/** What `npm start` runs: the compiled server (scripts/run-tests.mjs builds it before the e2e tier). */
export const MAIN = join(ROOT, 'dist', 'app', 'main.js');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; `input`, when given, is its standard input. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
  input?: string,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    if (input !== undefined) child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Waits until the process prints a line matching `pattern` (or fails after `ms`). */
export function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${seen}`)), ms);
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; output:\n${seen}`));
    });
  });
}

/** A PostgreSQL URL confined to a fresh schema (via the `options` parameter), and its cleanup. */
export async function isolatedPgUrl(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `lp_e2e_${randomBytes(4).toString('hex')}`;
  const exec = async (q: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await exec(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => exec(`drop schema ${schema} cascade`) };
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, the server's APP_URL. */
  base: string;
  /** Everything the server was started with beyond process.env (the CLI takes the same). */
  env: Record<string, string>;
  /** All it printed so far, stdout and stderr. */
  output(): string;
}

/**
 * Starts the compiled server on a free loopback port, with `env` over the tests' defaults (no
 * title fetch, no API or web rate limit, no sign-up limit per address), and resolves once it
 * listens (or fails after `listeningWithinMs`). Constants a test moves go in `env` through
 * tuningEnv (test-tuning.ts), over the defaults' own.
 */
export async function startServerProcess(
  env: Record<string, string>,
  listeningWithinMs = 20_000,
): Promise<ServerProcess> {
  const retired = retiredSettingsWarning(env);
  if (retired !== null) throw new Error(`startServerProcess: ${retired}; move constants to tuningEnv`);
  const tuning = {
    WEB_RATE_LIMIT: 0,
    SIGNUP_LIMIT_PER_ADDRESS: 0,
    ...(JSON.parse(env[TEST_TUNING_VARIABLE] ?? '{}') as Partial<Tuning>),
  };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const full = {
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    TITLE_FETCH: 'false',
    LOG_LEVEL: 'info',
    API_RATE_LIMIT: '0',
    // No scheduled destination checks (a test's links would be checked over the network); a test
    // of them turns them on.
    HEALTH_CHECK_INTERVAL_HOURS: '0',
    // The redirect snapshot in a directory of its own, never ./data of the working tree.
    SNAPSHOT_PATH: join(mkdtempSync(join(tmpdir(), 'linkpix-snapshot-')), 'redirects.snapshot'),
    ...env,
    ...tuningEnv(tuning),
  };
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...process.env, ...full } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  try {
    await waitForOutput(child, /Server listening/, listeningWithinMs);
  } catch (error) {
    // The caller never gets the process to stop: one that was merely slow would outlive the tests.
    child.kill('SIGKILL');
    throw error;
  }
  return { child, base, env: full, output: () => output };
}

/** A new account made by the CLI on the database `env` names; its API key. */
export async function cliAccountKey(env: Record<string, string>, email: string): Promise<string> {
  const made = await run(process.execPath, [BIN, 'users', 'create', '--email', email], env);
  if (made.code !== 0) throw new Error(`linkpix users create failed: ${made.stderr}`);
  return JSON.parse(made.stdout).api_key as string;
}

/** A database of its own for CLI runs: a fresh SQLite file, or a fresh PostgreSQL schema. */
export async function cliDatabase(
  engine: 'sqlite' | 'postgres',
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (engine === 'postgres') {
    const db = await isolatedPgUrl(testDatabaseUrl());
    return { env: { DATABASE_URL: db.url }, cleanup: db.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-cli-'));
  return {
    env: { DATABASE_URL: `sqlite:${join(dir, 'cli.db')}` },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
