#!/usr/bin/env node
// The `linkpix` command. Runs the TypeScript sources through tsx, as `npm start` does.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/app/cli.ts');
await main();
