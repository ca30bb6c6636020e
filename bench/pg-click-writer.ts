/**
 * How many clicks a second the PostgreSQL click writer keeps (issue 14: it must keep pace with the
 * redirect rate one instance serves). Writes N clicks over L links through the click writer (in process), one
 * batch of B at a time as the click writer does with a backlog, in a fresh schema of
 * TEST_DATABASE_URL (loopback), then checks the totals and prints clicks/s, Node CPU per click
 * and, when the redirect bench ran just before (`npm run bench`), its rate beside. Traffic:
 * `redirect`, the clicks of the redirect bench's requests; `varied`, every field random and
 * nearly every visitor new (more rollup rows and visitor marks a click). Measured twice, each in a
 * fresh schema: with the rollup window (`--window-ms`, STATS_FLUSH_INTERVAL_MS's default; the
 * last window's write is timed too) and without it (0: rollups after every batch).
 *
 *   npm run bench:pg-writer [-- --clicks 100000 --links 300 --batch 1000 --traffic redirect|varied --window-ms 15000]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { inFreshPgSchema } from './pg-schema.ts';
import { redirectBenchClicks, seedLinks, variedClicks } from './pg-click-writer/clicks.ts';
import { connect } from '../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../src/adapters/storage/migrations/index.ts';
import { PgClickWrites } from '../src/adapters/clicks/postgres/pg-click-writes.ts';
import { clickWriterOver, toBatch, writeNow } from '../test/support/click-hand-over.ts';

const { values } = parseArgs({
  options: {
    clicks: { type: 'string', default: '100000' },
    links: { type: 'string', default: '300' },
    batch: { type: 'string', default: '1000' },
    traffic: { type: 'string', default: 'redirect' },
    'window-ms': { type: 'string', default: '15000' },
  },
});
const positive = (name: string, raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const CLICKS = positive('clicks', values.clicks);
const LINKS = positive('links', values.links);
const BATCH = positive('batch', values.batch);
const TRAFFIC = values.traffic;
const WINDOW_MS = positive('window-ms', values['window-ms']);
if (TRAFFIC !== 'redirect' && TRAFFIC !== 'varied') throw new Error('--traffic must be redirect or varied');

console.log(
  `\nPostgreSQL click writer — ${CLICKS.toLocaleString('en')} clicks over ${LINKS.toLocaleString('en')} links, batches of ${BATCH.toLocaleString('en')}, ${TRAFFIC} traffic`,
);
const URL_GIVEN = process.env.TEST_DATABASE_URL;
if (!URL_GIVEN) {
  console.log(
    '!! SKIPPED: the PostgreSQL click writer was NOT measured; set TEST_DATABASE_URL=postgres://…@127.0.0.1/… to measure it',
  );
  process.exit(0);
}
// Loopback only: over a network this would measure the network, and write to someone's database.
const host = new URL(URL_GIVEN).hostname;
if (!['127.0.0.1', 'localhost', '[::1]', ''].includes(host)) {
  console.log(`!! SKIPPED: TEST_DATABASE_URL names ${host}; this bench writes only to a PostgreSQL on loopback`);
  process.exit(1);
}

const rates: Array<[label: string, rate: number]> = [];
let exactEverywhere = true;
for (const windowMs of [WINDOW_MS, 0]) {
  const label =
    windowMs === 0
      ? 'without the window (STATS_FLUSH_INTERVAL_MS=0)'
      : `with the rollup window (STATS_FLUSH_INTERVAL_MS=${windowMs})`;
  await inFreshPgSchema(async (url, schema) => {
    const storage = connect(url, { schema, poolSize: 2 });
    try {
      await migrateToLatest(storage.db, 'postgres');
      const { accountId, linkIds } = await seedLinks(storage.db, LINKS);
      const clicks = (TRAFFIC === 'redirect' ? redirectBenchClicks : variedClicks)(accountId, linkIds, CLICKS);
      const failures: unknown[] = [];
      // The writer as the server's runs it, its rows written a batch at a time as its due timer writes them.
      const store = clickWriterOver(new PgClickWrites(storage.db, {}), windowMs, (error) => failures.push(error));
      // A first batch warms the pool and the statements; it is not measured.
      const warm = clicks.splice(0, Math.min(BATCH, clicks.length - 1));
      await writeNow(store, toBatch(warm.map((click) => ({ click }))));
      await store.settle();

      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < clicks.length; i += BATCH) {
        await writeNow(store, toBatch(clicks.slice(i, i + BATCH).map((click, k) => ({ click, rotation: k % 3 }))));
      }
      // What the window still holds is part of the cost: as a sink's flush() does.
      await store.settle();
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const rate = clicks.length / seconds;
      rates.push([label, rate]);

      const humans = CLICKS - [...warm, ...clicks].filter((c) => c.isBot).length;
      const { rows } = await sql<{ counted: number; rows: number; total: number }>`
        select ((select coalesce(sum(clicks), 0) from links) + (select coalesce(sum(clicks), 0) from link_click_counts))::int8 as counted, (select count(*) from clicks)::int8 as rows,
               (select coalesce(sum(count), 0) from click_rollups where dimension = 'total')::int8 as total`.execute(
        storage.db,
      );
      const check = rows[0]!;
      const exact =
        check.counted === humans && check.rows === CLICKS && check.total === humans && failures.length === 0;
      exactEverywhere &&= exact;
      for (const error of failures) console.error('rollup window write failed:', error);

      console.log(
        `${label}: ${Math.round(rate).toLocaleString('en')} clicks/s (${((seconds * 1000) / Math.ceil(clicks.length / BATCH)).toFixed(1)} ms a batch;` +
          ` Node CPU ${((used.user + used.system) / clicks.length).toFixed(1)} µs a click)`,
      );
      console.log(
        `  totals ${exact ? 'exact' : 'WRONG'}: ${check.rows} rows, links.clicks ${check.counted}, rollup total ${check.total}, human clicks ${humans}`,
      );
    } finally {
      await storage.close();
    }
  });
}
const [windowed, plain] = rates.map(([, rate]) => rate) as [number, number];
console.log(
  `PostgreSQL click writer: ${Math.round(windowed).toLocaleString('en')} clicks/s with the rollup window, ${Math.round(plain).toLocaleString('en')} without (${(windowed / plain).toFixed(2)} ×)`,
);
printBeside(windowed);
if (!exactEverywhere) process.exitCode = 1;

/** The redirect rate of the redirect bench's last run (bench/results/latest.json), if there is one. */
function printBeside(rate: number): void {
  const file = join(import.meta.dirname, 'results', 'latest.json');
  if (!existsSync(file)) return;
  const latest = JSON.parse(readFileSync(file, 'utf8')) as {
    at: string;
    scenarios: Array<{ name: string; linkpix: { load: { rps: number } } }>;
  };
  for (const s of latest.scenarios) {
    const served = s.linkpix.load.rps;
    console.log(
      `beside the redirect bench of ${latest.at} (SQLite, ${s.name} links): ${Math.round(served).toLocaleString('en')} redirects/s served;` +
        ` this writer keeps ${(rate / served).toFixed(2)} × that`,
    );
  }
}
