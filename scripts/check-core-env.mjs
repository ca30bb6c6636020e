#!/usr/bin/env node
// The half of the dependency rule that dependency-cruiser cannot see (.dependency-cruiser.cjs has
// the imports): src/core reads no environment. Configuration reaches the core as plain options.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const FORBIDDEN = /\bprocess\s*(\.|\?\.|\[)\s*['"]?env\b|\bglobalThis\s*\.\s*process\b/;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const problems = [];
for (const file of files('src/core')) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (FORBIDDEN.test(line)) problems.push(`${file}:${i + 1}: ${line.trim()}`);
    });
}
if (problems.length > 0) {
  console.error('src/core must not read process.env:\n' + problems.join('\n'));
  process.exit(1);
}
console.log('src/core reads no process.env');
