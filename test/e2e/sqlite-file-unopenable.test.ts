// A SQLite file that cannot be opened is no outage (the database is a local file, not a host that
// comes back by itself): the start fails, exit 1, with one line naming the file and the reason,
// and no stack; the CLI says the same. Mode 000 only stops a process that is not root's: as
// root, the process under test runs as nobody.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, MAIN, ROOT, freePort } from '../support/processes.ts';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

interface Ended {
  code: number | null;
  stderr: string;
}

/** `args` run to its end on DATABASE_URL=sqlite:<path>, as nobody when the tests run as root. */
async function started(path: string, args: string[], asNobody = false): Promise<Ended> {
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${path}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    SNAPSHOT_PATH: '',
    LOG_LEVEL: 'info',
  };
  const ids = asNobody ? { uid: NOBODY, gid: NOBODY } : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, ...ids });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    // A start that did not fail would listen: stopped, and the test says so.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function assertOneLine(ended: Ended, path: string, reason: RegExp): void {
  assert.equal(ended.code, 1, ended.stderr);
  const lines = ended.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, no stack:\n${ended.stderr}`);
  assert.ok(lines[0]!.startsWith(`The SQLite database ${path} (DATABASE_URL) cannot be opened: `), lines[0]);
  assert.match(lines[0]!, reason);
}

describe('a SQLite file that cannot be opened', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-sqlite-unopenable-'));
    // nobody must reach the files of the cases it runs.
    chmodSync(dir, 0o755);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a directory in its place: the server and the CLI fail with one line naming it', async () => {
    const path = join(dir, 'linkpix.db');
    mkdirSync(path);
    assertOneLine(await started(path, [MAIN]), path, /it is a directory\.$/);
    assertOneLine(await started(path, [BIN, 'migrate']), path, /it is a directory\.$/);
  });

  test('mode 000: the reason names the mode and the process’s user', async () => {
    const path = join(dir, 'locked.db');
    writeFileSync(path, '');
    chmodSync(path, 0o000);
    const ended = await started(path, [MAIN], asRoot);
    assertOneLine(ended, path, /may not read and write it \(mode 0000, owner \d+\)\.$/);
  });

  test('a file that is not SQLite’s, and a file where its directory should be', async () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(8192, 'not a database '));
    assertOneLine(await started(garbage, [MAIN]), garbage, /it is not a SQLite database\.$/);
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, '');
    const below = join(blocker, 'linkpix.db');
    assertOneLine(
      await started(below, [MAIN]),
      below,
      /its directory .*blocker cannot be made: a file is in its way\.$/,
    );
  });
});
