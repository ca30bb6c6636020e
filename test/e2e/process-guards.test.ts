/**
 * The process-level guards of src/app/main.ts: a programmer error that reaches them (an
 * uncaught exception, an unhandled rejection) is logged and ends the process with 1, so its
 * supervisor starts a clean one. (That a lost database connection never reaches them is
 * database-outage.test.ts: the process stays up there.)
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, ROOT, freePort, waitForOutput } from '../support/processes.ts';

const INDUCE = join(ROOT, 'test', 'support', 'induce-fault.mjs');

async function crash(
  fault: 'exception' | 'rejection',
  logLevel: string,
): Promise<{ code: number | null; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-guards-'));
  try {
    const port = await freePort();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'guards.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      TITLE_FETCH: 'false',
      LOG_LEVEL: logLevel,
      INDUCE_FAULT: fault,
    };
    const child = spawn(process.execPath, ['--import', INDUCE, MAIN], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // A silent server prints nothing when it is ready: then ask it.
    if (logLevel === 'silent') {
      for (
        let i = 0;
        i < 200 &&
        !(await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        ));
        i++
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } else {
      await waitForOutput(child, /Server listening/);
    }
    child.kill('SIGUSR2');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return { code, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('process guards', () => {
  test('an uncaught exception is logged (with the error) and the process exits 1', async () => {
    const { code, output } = await crash('exception', 'info');
    assert.equal(code, 1, output);
    const line = output.split('\n').find((l) => l.includes('uncaught exception'));
    assert.ok(line, output);
    const entry = JSON.parse(line);
    assert.equal(entry.level, 60); // fatal
    assert.match(entry.err.message, /induced programmer error \(exception\)/);
  });

  test('an unhandled rejection is logged and the process exits 1, even with LOG_LEVEL=silent', async () => {
    const { code, output } = await crash('rejection', 'silent');
    assert.equal(code, 1, output);
    assert.match(output, /unhandled promise rejection \(a programmer error\); exiting/);
    assert.match(output, /induced programmer error \(rejection\)/);
  });
});
