#!/usr/bin/env node
// `linkpix` for people: login, shorten, links, stats, qr (README.md beside this folder).
// In the linkpix repository npm links this workspace's bin as node_modules/.bin/linkpix, which
// `npx linkpix` runs before the root package's own: there, every command goes on to the root's
// bin/linkpix.js, which rebuilds what changed and keeps the operator's commands (users, keys,
// domains, import…) beside these.
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);

function inRepository() {
  try {
    const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    return manifest.name === 'linkpix' && existsSync(new URL('bin/linkpix.js', root));
  } catch {
    return false;
  }
}

if (inRepository()) {
  await import(new URL('bin/linkpix.js', root).href);
} else {
  const { main } = await import('../dist/main.js');
  await main();
}
