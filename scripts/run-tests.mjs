#!/usr/bin/env node
// Runs the test tiers with Node's own runner. Files are listed explicitly: on Node 20 a
// directory argument to `node --test` silently runs nothing.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { reachesPostgres } from './postgres-files.mjs';

const TIERS = {
  unit: ['src', 'test/contracts/unit'],
  integration: ['test/integration', 'test/contracts/integration'],
  e2e: ['test/e2e'],
};

// A tier's files share a process (or two, to use both cores of the CI machine): starting Node,
// its TypeScript loader and the app's modules once per file cost more than most files' tests.
// Tests therefore leave no process-wide state behind (docs/design/tests.md).
// TEST_PROCESSES=1 keeps every tier to one (for runs that share the machine with another).
const SHARDS = { unit: 1, integration: 2, e2e: 2 };
// Files that must have the machine to themselves: they bound a time (a p99, "within 2 s"), kill or
// restart processes under load, or start several instances. They run after the rest of their
// tier, one after another in one process. In the e2e tier that is every file but the browser
// suites (`*browser.test.ts`), which only drive pages, and the files that bound no time (a wait
// for what happens in the background, seconds long, is no bound) and stop nothing under load
// (UNTIMED_PROCESS_FILES): they start a server process, or an in-process one, nginx or Caddy in
// front, and read what it logs or answers; run the CLI's binary, or the packed packages, against
// it; stop an idle one. Of the browser suites, those that bound a time (the pixel page's wait,
// the live numbers' 2 s) are alone too. A file named in either list must exist.
const TIMED_BROWSER_SUITES = ['test/e2e/browser.test.ts', 'test/e2e/live-numbers-browser.test.ts'];
const UNTIMED_PROCESS_FILES = [
  'test/e2e/app-url-default.test.ts',
  'test/e2e/caddy-on-demand-tls.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/mcp-stdio.test.ts',
  'test/e2e/nginx-static-fallback.test.ts',
  'test/e2e/packages-pack.test.ts',
  'test/e2e/people-cli.test.ts',
  'test/e2e/process-guards.test.ts',
  'test/e2e/qr-threads.test.ts',
  'test/e2e/request-log.test.ts',
  'test/e2e/retired-settings.test.ts',
  'test/e2e/server.test.ts',
  'test/e2e/sqlite-file-unopenable.test.ts',
];
const ALONE = {
  e2e: (f) => (!/browser\.test\.ts$/.test(f) && !UNTIMED_PROCESS_FILES.includes(f)) || TIMED_BROWSER_SUITES.includes(f),
};
const MAX_PROCESSES = Number(process.env.TEST_PROCESSES ?? Infinity);
// A tier that has not ended by then is hung (a handle left open): it fails rather than waits.
const SHARD_TIMEOUT_MS = 30 * 60_000;
const LEFT_OPEN_MS = 15_000;
const ENTRIES = mkdtempSync(join(tmpdir(), 'linkpix-tests-'));

// Each file's seconds in a recent CI run (scripts/test-durations.mjs writes them); a file not in
// it yet weighs its size, at the listed files' seconds a byte.
const DURATIONS = JSON.parse(readFileSync(new URL('../test/durations.json', import.meta.url), 'utf8'));

/** The files, the longest first by their time in a recent run. */
function longestFirst(files) {
  const sized = files.map((f) => ({ f, bytes: statSync(f).size, seconds: DURATIONS[f] }));
  const known = sized.filter((s) => s.seconds !== undefined);
  const perByte =
    known.length > 0 ? known.reduce((n, s) => n + s.seconds, 0) / known.reduce((n, s) => n + s.bytes, 0) : 1;
  return sized
    .map((s) => ({ f: s.f, weight: s.seconds ?? s.bytes * perByte }))
    .sort((a, b) => b.weight - a.weight || a.f.localeCompare(b.f))
    .map((s) => s.f);
}

/**
 * The entry module of a tier's process: it asks the runner for a file (over the IPC channel),
 * declares a suite for it, named by its path, which imports it, so node:test runs the file's
 * suites and hooks inside it and the report says which file each failure is in and how long each
 * file took; once that suite has ended it asks for the next, until the runner has none. The
 * processes of a tier share one queue, the longest files first: each takes the next file as it
 * ends one, so that they end together whatever the files' times in this run.
 */
function entryModule() {
  // Once the last suite has ended, the process has nothing left to do: what still holds it open
  // is named, and fails the run, rather than hanging it.
  return `import { after, describe } from 'node:test';
import { pathToFileURL } from 'node:url';
// What a file keeps open for the next ones (test/support/browser.ts's Chromium), closed at the end.
const atProcessEnd = (globalThis[Symbol.for('linkpix.tests.atProcessEnd')] = []);
const next = () =>
  new Promise((resolve) => {
    process.once('message', resolve);
    process.send('next');
  });
for (let file = await next(); file !== null; file = await next()) {
  await new Promise((ended) =>
    describe(file, async () => {
      after(ended);
      await import(pathToFileURL(file).href);
    }),
  );
}
for (const close of atProcessEnd) await close();
process.disconnect();
setTimeout(() => {
  console.error(\`!! the tests have ended but the process is held open by: \${process.getActiveResourcesInfo().join(', ')}\`);
  process.exit(1);
}, ${LEFT_OPEN_MS}).unref();
`;
}

/**
 * Runs files in one process, taking each from `queue` (shared by the tier's processes) as it
 * ends the one before (entryModule). A process of several is held back and printed whole when
 * it ends, so that the log reads one suite after another.
 */
function runShard(tier, index, queue, buffered, { env = process.env, reporter = [] } = {}) {
  const entry = join(ENTRIES, `${tier}-${index}.mts`);
  writeFileSync(entry, entryModule());
  const taken = [];
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=spec', ...reporter, entry], {
      stdio: buffered ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...env, NODE_ENV: 'test' },
    });
    child.on('message', () => {
      const file = queue.shift() ?? null;
      if (file !== null) taken.push(file);
      if (child.connected) child.send(file);
    });
    const output = [];
    child.stdout?.on('data', (d) => output.push(d));
    child.stderr?.on('data', (d) => output.push(d));
    const timer = setTimeout(() => {
      output.push(
        Buffer.from(`\n!! ${tier} process ${index + 1} did not end within ${SHARD_TIMEOUT_MS / 60_000} min: killed\n`),
      );
      child.kill('SIGKILL');
    }, SHARD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (buffered) {
        process.stdout.write(`\n-- ${tier}, process ${index + 1}: ${taken.length} files\n`);
        process.stdout.write(Buffer.concat(output));
      }
      if (!buffered && signal === 'SIGKILL')
        console.error(`!! ${tier} did not end within ${SHARD_TIMEOUT_MS / 60_000} min: killed`);
      done(code === 0);
    });
  });
}

/**
 * The `--without-postgres` run of a tier's files (above): whether none failed and each skipped
 * something. What each file reported comes from scripts/skips-reporter.mjs.
 */
async function runWithoutPostgres(tier, files) {
  console.log(
    `\n== ${tier}: ${files.length} files that can reach PostgreSQL, with TEST_DATABASE_URL unset and TEST_ENGINES=postgres`,
  );
  const counts = join(ENTRIES, `${tier}-skips.jsonl`);
  const env = { ...process.env, TEST_ENGINES: 'postgres' };
  delete env.TEST_DATABASE_URL;
  const reporter = [
    `--test-reporter=${fileURLToPath(new URL('skips-reporter.mjs', import.meta.url))}`,
    '--test-reporter-destination=stdout',
    `--test-reporter-destination=${counts}`,
  ];
  let ok = await runShard(`${tier}-without-postgres`, 0, longestFirst(files), false, { env, reporter });
  const reported = new Map(
    (existsSync(counts) ? readFileSync(counts, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .map((r) => [r.file, r]),
  );
  for (const f of files) {
    const r = reported.get(f);
    if (!r) console.error(`!! ${f} reported nothing`);
    else if (r.failed > 0) console.error(`!! ${f}: ${r.failed} failed without TEST_DATABASE_URL`);
    else if (r.skipped === 0)
      console.error(
        `!! ${f} can reach PostgreSQL (scripts/postgres-files.mjs) but skipped nothing without TEST_DATABASE_URL`,
      );
    else continue;
    ok = false;
  }
  const skipped = [...reported.values()].reduce((n, r) => n + r.skipped, 0);
  console.log(
    `\n-- ${tier} without PostgreSQL: ${files.length} files, skipped: ${skipped} tests and suites${ok ? ', none failed' : ''}`,
  );
  return ok;
}

function find(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(find(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out.sort();
}

// `--except DIR` (repeatable) leaves the files under DIR out of every tier asked for; `--only DIR`
// (repeatable) keeps, in the tier that DIR is part of, only the files under it. DIR may be one
// test file.
// `--without-postgres` runs, of those, only the files that can reach PostgreSQL
// (scripts/postgres-files.mjs), in one process, as a fresh clone would: TEST_DATABASE_URL unset,
// and TEST_ENGINES=postgres so that the suites run once per engine do not run their SQLite halves
// again. Any failure fails the run, and so does a file that skipped nothing: each must say its
// PostgreSQL suites did not run, rather than fail to connect or pass without them.
const args = process.argv.slice(2);
const FLAGS = ['--except', '--only'];
const SWITCHES = ['--without-postgres'];
const valuesOf = (flag) => args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));
const except = valuesOf('--except');
const only = valuesOf('--only');
const withoutPostgres = args.includes('--without-postgres');
const asked = args.filter((a, i) => !FLAGS.includes(a) && !SWITCHES.includes(a) && !FLAGS.includes(args[i - 1]));
const tiers = asked.length > 0 ? asked : Object.keys(TIERS);
for (const tier of tiers) {
  if (!TIERS[tier]) {
    console.error(`unknown test tier "${tier}"; known: ${Object.keys(TIERS).join(', ')}`);
    process.exit(2);
  }
}
// What the integration and e2e tiers need besides Node, said in one line each before any test runs.
const CHROMIUM = '/usr/bin/chromium';
// The load balancer of test/e2e/cluster.test.ts (test/support/cluster.ts starts it).
const NGINX = '/usr/sbin/nginx';
const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const reachable = (host, port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host, port: Number(port), timeout: 2000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
const missing = [];
if (tiers.some((t) => t !== 'unit') && !(await reachable(REDIS_URL.hostname, REDIS_URL.port || 6379))) {
  missing.push(`Redis is not reachable at ${REDIS_URL.href} (start redis-server, or set TEST_REDIS_URL)`);
}
if (tiers.includes('e2e') && !existsSync(CHROMIUM)) {
  missing.push(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`);
}
if (tiers.includes('e2e') && !existsSync(NGINX)) {
  missing.push(`nginx is not installed at ${NGINX} (apt-get install -y nginx)`);
}
if (missing.length > 0) {
  for (const line of missing) console.error(`npm test needs: ${line}`);
  process.exit(1);
}
if (tiers.includes('e2e')) {
  for (const f of [...TIMED_BROWSER_SUITES, ...UNTIMED_PROCESS_FILES]) {
    if (!existsSync(f)) {
      console.error(`scripts/run-tests.mjs names ${f}, which does not exist`);
      process.exit(2);
    }
  }
}
if (!process.env.TEST_DATABASE_URL && !withoutPostgres) {
  console.warn('\n!! TEST_DATABASE_URL is not set: every PostgreSQL suite will be reported as SKIPPED, not passed.\n');
}
let failed = false;
for (const tier of tiers) {
  const under = (f, dir) => f === dir || f.startsWith(dir.replace(/\/$/, '') + '/');
  const all = TIERS[tier].flatMap(find);
  const onlyHere = only.filter((dir) => TIERS[tier].some((root) => under(`${dir}/`, root)));
  const kept = onlyHere.length > 0 ? all.filter((f) => onlyHere.some((dir) => under(f, dir))) : all;
  const files = kept.filter((f) => !except.some((dir) => under(f, dir)) && (!withoutPostgres || reachesPostgres(f)));
  if (except.length > 0) console.log(`(leaving out ${except.join(', ')})`);
  if (onlyHere.length > 0) console.log(`(only ${onlyHere.join(', ')})`);
  if (files.length === 0) {
    console.error(`no test files found for tier "${tier}"`);
    failed = true;
    continue;
  }
  // The e2e tier runs the server as `npm start` does: compiled to dist/ first. Emitted only, its
  // types not checked again (--noCheck): that is `npm run typecheck`'s, and the emit does not
  // depend on them; a build that checked (`npm run build`) counts as up to date.
  if (tier === 'e2e') {
    console.log('\n== build (tsc -b tsconfig.build.json --noCheck, only what changed) for the e2e tier');
    const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
    const built = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
    const copied =
      built.status === 0 ? spawnSync(process.execPath, ['scripts/copy-assets.mjs'], { stdio: 'inherit' }) : built;
    if (copied.status !== 0) {
      failed = true;
      continue;
    }
  }
  if (withoutPostgres) {
    if (!(await runWithoutPostgres(tier, files))) failed = true;
    continue;
  }
  const alone = files.filter((f) => ALONE[tier]?.(f) ?? false);
  const shared = files.filter((f) => !alone.includes(f));
  if (shared.length > 0) {
    const count = Math.min(SHARDS[tier], MAX_PROCESSES, shared.length);
    const queue = longestFirst(shared);
    const what = alone.length > 0 ? ` (the ${alone.length} that need the machine to themselves next)` : '';
    console.log(`\n== ${tier}: ${shared.length} files in ${count} process${count > 1 ? 'es' : ''}${what}`);
    const results = await Promise.all(Array.from({ length: count }, (_, i) => runShard(tier, i, queue, count > 1)));
    if (results.some((ok) => !ok)) failed = true;
  }
  if (alone.length > 0) {
    console.log(`\n== ${tier}: ${alone.length} files, one at a time, alone on the machine`);
    if (!(await runShard(`${tier}-alone`, 0, longestFirst(alone), false))) failed = true;
  }
}
rmSync(ENTRIES, { recursive: true, force: true });
// Not process.exit(): the processes' reports may still be on their way down a pipe (`| tee` in
// .ci/run), and exit() would cut them off.
process.exitCode = failed ? 1 : 0;
