#!/usr/bin/env node
// The `linkpix` command runs the compiled code, as `npm start` does, so that a production
// install needs neither the TypeScript sources nor a loader. In a checkout (src/ beside it),
// a dist/ older than the sources is rebuilt first: the command never runs yesterday's code.
// The people's commands (packages/cli: login, shorten, links, mcp…) talk to a server over its API and
// need none of its configuration: they are sent there before anything reads it, so that they run
// anywhere. The list is packages/cli's PEOPLE_COMMANDS (test/e2e/people-cli.test.ts holds them equal).
import { existsSync } from 'node:fs';

const PEOPLE_COMMANDS = ['login', 'logout', 'shorten', 'links', 'stats', 'qr', 'mcp'];

if (existsSync(new URL('../src', import.meta.url))) {
  const { buildIfStale } = await import('./build-if-stale.js');
  buildIfStale();
}
const people = PEOPLE_COMMANDS.includes(process.argv[2] ?? '');
const cli = new URL(people ? '../packages/cli/dist/main.js' : '../dist/app/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(`linkpix: ${people ? 'packages/cli/dist/' : 'dist/'} is missing; run \`npm run build\` first.`);
  process.exit(1);
}
const { main } = await import(cli.href);
await main();
