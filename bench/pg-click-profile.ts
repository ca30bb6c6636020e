/**
 * Where PostgreSQL's CPU goes when it takes clicks (issue 32): the redirect bench's traffic over
 * `--links` links written through the click writer (ClickWriter over PgClickWrites) as the writer thread writes them (batches of
 * `--batch`, the rollup window written when it fills, as under heavy traffic, and at the end),
 * with each statement's backend CPU read from /proc/<backend pid>/schedstat (nanoseconds, the
 * backend's own time, kernel included) around it. A first pass of `--warm` clicks makes the day's
 * rollup rows and visitor marks exist, as they do a few seconds into the redirect bench; the
 * second pass of `--clicks` is measured. Then each write statement once more, in a transaction
 * rolled back, under EXPLAIN (ANALYZE, BUFFERS, WAL): rows, buffers dirtied and WAL bytes.
 * Runs in a fresh schema of TEST_DATABASE_URL (loopback only; PostgreSQL on this machine).
 *
 *   node --import tsx bench/pg-click-profile.ts [--links 10000 --warm 150000 --clicks 200000 --batch 1000]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { inFreshPgSchema } from './pg-schema.ts';
import { redirectBenchClicks, seedLinks } from './pg-click-writer/clicks.ts';
import type { Database } from '../src/adapters/storage/schema.ts';
import { migrateToLatest } from '../src/adapters/storage/migrations/index.ts';
import { PgClickWrites } from '../src/adapters/clicks/postgres/pg-click-writes.ts';
import { insertClickArrays, pgClickStatements } from '../src/adapters/clicks/postgres/pg-click-statements.ts';
import { pgClickArrays } from '../src/adapters/clicks/postgres/pg-click-arrays.ts';
import { clickWriterOver, encodeClicks, toBatch, writeNow } from '../test/support/click-hand-over.ts';
import type { ClickWriter } from '../src/adapters/clicks/writer/click-writer.ts';
import { RollupWindow } from '../src/adapters/clicks/window/rollup-window.ts';

const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '10000' },
    warm: { type: 'string', default: '150000' },
    clicks: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '1000' },
    nested: { type: 'boolean', default: false },
    // Scratch: DDL run after the migrations, to price a change before making it.
    ddl: { type: 'string', multiple: true, default: [] },
  },
});
const count = (name: string, raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const LINKS = count('links', values.links);
const WARM = count('warm', values.warm);
const CLICKS = count('clicks', values.clicks);
const BATCH = count('batch', values.batch);

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.log('!! SKIPPED: set TEST_DATABASE_URL=postgres://…@127.0.0.1/… to profile PostgreSQL');
  process.exit(0);
}
if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname))
  throw new Error('loopback only: the backends are read in /proc');

/** The statement kinds of a batch and a window, told by their text. */
const KINDS: Array<[kind: string, test: RegExp]> = [
  ['begin', /^begin/i],
  ['commit', /^commit/i],
  ['keep links (for key share)', /coalesce\(expiration_clicks/],
  ['click rows (+ pending batch)', /insert into clicks/],
  ['release pending batches', /delete from click_batches_pending/],
  ['lock links (for no key update)', /for no key update/],
  ['link counters', /update links set clicks|insert into link_click_counts/],
  ['link rotations', /update links set last_rotation/],
  ['visitor marks', /insert into click_visitors/],
  ['rollup upserts', /insert into click_rollups/],
  ['account days', /insert into account_click_days/],
];
const kindOf = (text: string) =>
  KINDS.find(([, test]) => test.test(text.trim()))?.[0] ?? `other: ${text.trim().slice(0, 60)}`;

/** A backend's CPU so far, ns (the first field of schedstat). */
const cpuNs = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

interface Tally {
  ns: number;
  calls: number;
}
const tallies = new Map<string, Tally>();
/** Thrown to roll the explained statements back. */
class RolledBack extends Error {}

let measuring = false;
let explaining = false;

interface Explained {
  label: string;
  rows: number;
  ms: number;
  dirtied: number;
  walRecords: number;
  walBytes: number;
  fpi: number;
  triggerMs: number;
}
const explained: Explained[] = [];

interface PlanNode {
  'Actual Rows': number;
  'Shared Dirtied Blocks': number;
  'WAL Records': number;
  'WAL Bytes': number;
  'WAL FPI': number;
}
interface Plan {
  Plan: PlanNode;
  'Execution Time': number;
  Triggers?: Array<{ Time: number }>;
}

/** A pool whose clients time each statement on their backend. */
function timedPool(schema: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    options: `-c jit=off -c max_parallel_workers_per_gather=0 -c search_path=${schema}`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('connect', (client) => {
    // With --nested, the statements triggers run (auto_explain's notices) are printed too.
    client.on('notice', (notice) => {
      if (explaining && values.nested) console.log(`    nested: ${notice.message?.replace(/\s+/g, ' ').slice(0, 900)}`);
    });
    const pid = (client as unknown as { processID: number }).processID;
    const query = client.query.bind(client) as (text: string, params?: unknown[]) => Promise<pg.QueryResult>;
    (client as unknown as { query: typeof query }).query = async (text: string, params?: unknown[]) => {
      if (explaining && /^\s*(with|insert|update|delete)\b/i.test(text)) {
        const { rows } = await query(`explain (analyze, buffers, wal, format json) ${text}`, params);
        const plan = (rows[0] as { 'QUERY PLAN': Plan[] })['QUERY PLAN'][0]!;
        explained.push({
          label: kindOf(text),
          rows: plan.Plan['Actual Rows'],
          ms: plan['Execution Time'],
          dirtied: plan.Plan['Shared Dirtied Blocks'],
          walRecords: plan.Plan['WAL Records'],
          walBytes: plan.Plan['WAL Bytes'],
          fpi: plan.Plan['WAL FPI'],
          triggerMs: (plan.Triggers ?? []).reduce((t, x) => t + x.Time, 0),
        });
        return { rows: [], rowCount: 0 } as unknown as pg.QueryResult;
      }
      const before = cpuNs(pid);
      const result = await query(text, params);
      if (measuring) {
        const tally = tallies.get(kindOf(text)) ?? { ns: 0, calls: 0 };
        tally.ns += cpuNs(pid) - before;
        tally.calls++;
        tallies.set(kindOf(text), tally);
      }
      return result;
    };
  });
  return pool;
}

async function write(store: ClickWriter, clicks: ReturnType<typeof redirectBenchClicks>): Promise<void> {
  for (let i = 0; i < clicks.length; i += BATCH)
    await writeNow(store, toBatch(clicks.slice(i, i + BATCH).map((click, k) => ({ click, rotation: k % 3 }))));
  await store.settle();
}

await inFreshPgSchema(async (_, schema) => {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: timedPool(schema) }) });
  try {
    await migrateToLatest(db, 'postgres');
    for (const ddl of values.ddl) await sql.raw(ddl).execute(db);
    const { accountId, linkIds } = await seedLinks(db, LINKS);
    const all = redirectBenchClicks(accountId, linkIds, WARM + CLICKS);
    // As the server's writer: a large interval, so that the window is written when it fills.
    const store = clickWriterOver(new PgClickWrites(db, { owner: 'profile' }), 600_000, (e) => console.error(e));
    await write(store, all.slice(0, WARM));
    await sql`checkpoint`.execute(db).catch(() => undefined);

    measuring = true;
    const started = performance.now();
    await write(store, all.slice(WARM));
    const seconds = (performance.now() - started) / 1000;
    measuring = false;

    const total = [...tallies.values()].reduce((s, t) => s + t.ns, 0);
    console.log(
      `PostgreSQL backends: ${(total / 1000 / CLICKS).toFixed(2)} µs a click over ${CLICKS.toLocaleString('en')} clicks on ${LINKS.toLocaleString('en')} links` +
        ` (batches of ${BATCH}; ${seconds.toFixed(1)} s, ${Math.round(CLICKS / seconds).toLocaleString('en')} clicks/s)`,
    );
    for (const [kind, t] of [...tallies].sort((a, b) => b[1].ns - a[1].ns)) {
      console.log(
        `  ${kind.padEnd(34)} ${(t.ns / 1000 / CLICKS).toFixed(2).padStart(6)} µs a click  ${((100 * t.ns) / total).toFixed(0).padStart(3)} %  ${t.calls} statements`,
      );
    }

    await explainEach(db, all.slice(0, BATCH));
  } finally {
    await db.destroy();
  }
});

/**
 * Each write statement of a batch of `clicks` and of a window over it, run once under EXPLAIN
 * (ANALYZE, BUFFERS, WAL) in a transaction rolled back; on the rows the measured pass left.
 */
async function explainEach(db: Kysely<Database>, clicks: ReturnType<typeof redirectBenchClicks>): Promise<void> {
  const window = new RollupWindow();
  window.add(clicks);
  const batch = toBatch(clicks.map((click) => ({ click })));
  explaining = true;
  await db
    .transaction()
    .execute(async (trx) => {
      const s = pgClickStatements;
      if (values.nested) {
        await sql`load 'auto_explain'`.execute(trx);
        for (const setting of [
          'log_min_duration = 0',
          'log_nested_statements = on',
          'log_analyze = on',
          "log_level = 'notice'",
        ])
          await sql.raw(`set local auto_explain.${setting}`).execute(trx);
      }
      const live = await s.keepLinks(
        trx,
        [...batch.counts.keys()].sort((a, b) => a - b),
      );
      // The batch's rows as the writer inserts them: binary arrays, with a record and without.
      const rows = pgClickArrays([encodeClicks(clicks)], () => true);
      await insertClickArrays(trx, rows, 'profile');
      await insertClickArrays(trx, rows);
      await s.insertMarks(trx, [...window.orderedMarks()]);
      await s.upsertRollups(trx, [...window.orderedIncrements()].slice(0, 2_000));
      // A window's counters, as the writer writes them (docs/design/clicks.md).
      await s.countWindow(
        trx,
        [...batch.counts].map(([id, n]) => ({ id, clicks: n, rotation: live.has(id) ? 1 : null })),
      );
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  explaining = false;
  console.log(
    `\nEach write statement once on a batch of ${clicks.length} clicks (EXPLAIN ANALYZE, BUFFERS, WAL; rolled back):`,
  );
  for (const e of explained) {
    console.log(
      `  ${e.label.padEnd(34)} ${String(e.rows).padStart(6)} rows  ${e.ms.toFixed(1).padStart(6)} ms  dirtied ${String(e.dirtied).padStart(5)}` +
        `  WAL ${String(e.walRecords).padStart(6)} records ${(e.walBytes / 1024).toFixed(0).padStart(6)} kB (${e.fpi} full pages)  triggers ${e.triggerMs.toFixed(1)} ms`,
    );
  }
}
