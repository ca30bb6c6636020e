#!/usr/bin/env node
// Runs the test tiers with Node's own runner. Files are listed explicitly: on Node 20 a
// directory argument to `node --test` silently runs nothing.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';

const TIERS = {
  unit: ['src', 'test/unit'],
  integration: ['test/integration'],
  e2e: ['test/e2e'],
};

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

// `--except DIR` (repeatable) leaves the files under DIR out of every tier asked for.
const args = process.argv.slice(2);
const except = args.flatMap((a, i) => (args[i - 1] === '--except' ? [a] : []));
const asked = args.filter((a, i) => a !== '--except' && args[i - 1] !== '--except');
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
if (!process.env.TEST_DATABASE_URL) {
  console.warn('\n!! TEST_DATABASE_URL is not set: every PostgreSQL suite will be reported as SKIPPED, not passed.\n');
}
let failed = false;
for (const tier of tiers) {
  const files = TIERS[tier].flatMap(find).filter((f) => !except.some((dir) => f.startsWith(dir.replace(/\/$/, '') + '/')));
  if (except.length > 0) console.log(`(leaving out ${except.join(', ')})`);
  if (files.length === 0) {
    console.error(`no test files found for tier "${tier}"`);
    failed = true;
    continue;
  }
  // The e2e tier runs the server as `npm start` does: compiled to dist/ first.
  if (tier === 'e2e') {
    console.log('\n== build (tsc -p tsconfig.build.json) for the e2e tier');
    const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
    const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
    const copied = built.status === 0 ? spawnSync(process.execPath, ['scripts/copy-assets.mjs'], { stdio: 'inherit' }) : built;
    if (copied.status !== 0) {
      failed = true;
      continue;
    }
  }
  console.log(`\n== ${tier}: ${files.length} files`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
