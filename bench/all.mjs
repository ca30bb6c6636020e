#!/usr/bin/env node
// `npm run bench`: the redirect against a bare Node server (bench/redirect.ts), then the
// PostgreSQL click writer beside the redirect rate just measured (bench/pg-click-writer.ts;
// skipped, loudly, without TEST_DATABASE_URL) over 300 links (issue 14's load) and over the
// redirect bench's 10 000, then the statistics over ten million clicks (bench/stats.ts), then the web app's pages for an account with
// 100 000 links and a link with ten million clicks (bench/web-pages.ts). Flags go to the redirect part;
// --skip-stats leaves the (slow to load) statistics part out, --skip-web the pages.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const skipStats = args.includes('--skip-stats');
const skipWeb = args.includes('--skip-web');
const redirectArgs = args.filter((a) => a !== '--skip-stats' && a !== '--skip-web');
const run = (file, extra) =>
  spawnSync(process.execPath, ['--import', 'tsx', file, ...extra], { stdio: 'inherit' }).status ?? 1;

let status = run('bench/redirect.ts', redirectArgs);
status = run('bench/pg-click-writer.ts', ['--links', '300']) || status;
// Over 10 000 links, 200 000 clicks: what 15 s (STATS_FLUSH_INTERVAL_MS's default) of 13 500
// redirects a second leave in one rollup window, so the window sums what it would in service.
if (process.env.TEST_DATABASE_URL)
  status = run('bench/pg-click-writer.ts', ['--links', '10000', '--clicks', '200000']) || status;
if (!skipStats) status = run('bench/stats.ts', []) || status;
if (!skipWeb) status = run('bench/web-pages.ts', []) || status;
process.exit(status);
