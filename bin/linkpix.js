#!/usr/bin/env node
// The `linkpix` command runs the compiled code, as `npm start` does, so that a production
// install needs neither the TypeScript sources nor a loader. In a checkout (src/ beside it),
// a dist/ older than the sources is rebuilt first: the command never runs yesterday's code.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src', import.meta.url))) {
  const { buildIfStale } = await import('./build-if-stale.js');
  buildIfStale();
}
const cli = new URL('../dist/app/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('linkpix: dist/ is missing; run `npm run build` first.');
  process.exit(1);
}
const { main } = await import(cli.href);
await main();
