#!/usr/bin/env node
// Writes test/durations.json from the logs of test runs (`.ci/run`'s or `npm test`'s output):
// each integration and e2e file's seconds (the contract suites' integration files too), by which scripts/run-tests.mjs starts the longest
// files first. A later log's figure replaces an earlier one's; a file in no log keeps the figure
// it had, and a file that no longer exists goes. Refresh it when files are added or grow.
//
//   node scripts/test-durations.mjs older-ci.log ci.log
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const logs = process.argv.slice(2);
if (logs.length === 0) {
  console.error('usage: node scripts/test-durations.mjs <log of a test run>…');
  process.exit(2);
}
const target = new URL('../test/durations.json', import.meta.url);
const durations = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(target, 'utf8'))).filter(([path]) =>
    existsSync(new URL(`../${path}`, import.meta.url)),
  ),
);
for (const log of logs) {
  const seen = new Map();
  for (const [, file, ms] of readFileSync(log, 'utf8').matchAll(
    /^✔ (test\/(?:contracts\/)?(?:integration|e2e)\/\S+\.test\.ts) \(([\d.]+)ms\)$/gm,
  )) {
    // .ci/run runs a file more than once: without PostgreSQL (its suites skipped), on both
    // engines, on the other Nodes (SQLite only). Its longest run is the one the order is for.
    const seconds = Math.max(1, Math.round(Number(ms) / 1000));
    seen.set(file, Math.max(seen.get(file) ?? 0, seconds));
  }
  for (const [file, seconds] of seen) durations[file] = seconds;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(sorted).length} files`);
