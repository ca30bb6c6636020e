#!/usr/bin/env node
// The dependency rule of docs/architecture.md: src/core imports no framework, driver or
// environment, and no adapter or app code. Fails with every offending line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const FORBIDDEN = [
  /from ['"](fastify|@fastify\/[^'"]+|kysely|better-sqlite3|pg|ioredis|qs|@sinclair\/typebox)['"]/,
  /from ['"][^'"]*\/(adapters|app)\//,
  /process\.env/,
];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const problems = [];
for (const file of files('src/core')) {
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (FORBIDDEN.some((re) => re.test(line))) problems.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}
if (problems.length > 0) {
  console.error('src/core must not depend on frameworks, drivers, adapters or process.env:\n' + problems.join('\n'));
  process.exit(1);
}
console.log('dependency rule: src/core is clean');
