/**
 * `kill -9` soon after a start: an instance killed 0.5 s after its first answered
 * visit, under loopback load, loses at most the clicks answered in the last flush interval
 * before the kill (docs/design/clicks.md): no visit is answered before its writer thread can
 * write, so the first second's clicks are held to the same bound. Once it is
 * started again, the statistics and counters of what was written are recovered.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES } from '../support/harness.ts';
import { clickDatabase, writtenTo, type ClickDatabase } from '../support/click-database.ts';
import { BIN, cliAccountKey, run, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { visit } from '../support/visit-load.ts';
import { tuningEnv } from '../support/test-tuning.ts';

const FLUSH_MS = 200;
const LEASE_MS = 1500;
const KILL_AFTER_MS = 500;
const LINKS = 20;
const CONCURRENCY = 8;
// Bounds of the load, whatever the machine's speed: it stops at the kill in any case.
const MAX_VISITS = 20_000;
const MAX_LOAD_MS = 10_000;
// A start on a machine shared by many test runs can take far longer than on its own.
const START_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of ENGINES)
  describe(`kill -9 0.5 s after the first answered visit [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let db: ClickDatabase;
    let databaseUrl: string;
    const servers: ServerProcess[] = [];
    const env = () => ({
      DATABASE_URL: databaseUrl,
      CLICK_FLUSH_INTERVAL_MS: String(FLUSH_MS),
      // So that the restarted instance rolls up the killed one's batches within seconds.
      ...tuningEnv({ CLICK_WRITER_LEASE_MS: LEASE_MS }),
    });

    before(async () => {
      db = await clickDatabase(engine.name, 'early-kill');
      databaseUrl = db.databaseUrl;
      // The links exist before the instance starts: its first visits are the load's.
      await cliAccountKey({ DATABASE_URL: databaseUrl }, 'early@example.com');
      const file = join(db.dir, 'links.csv');
      writeFileSync(
        file,
        ['url,alias', ...Array.from({ length: LINKS }, (_, k) => `https://example.com/early${k},early${k}`)].join(
          '\n',
        ) + '\n',
      );
      const imported = await run(process.execPath, [BIN, 'import', file, '--email', 'early@example.com'], {
        DATABASE_URL: databaseUrl,
        TITLE_FETCH: 'false',
      });
      assert.equal(imported.code, 0, imported.stderr);
    });

    after(async () => {
      for (const server of servers)
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await db?.cleanup();
    });

    test('click rows lost ≤ the visits answered in the last flush interval; rows, counters and rollups agree after a restart', async (t) => {
      const victim = await startServerProcess(env(), START_MS);
      servers.push(victim);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        victim.child.on('exit', (_, signal) => resolve(signal)),
      );
      const answeredAt: number[] = [];
      let killedAt = 0;
      let next = 0;
      const startedAt = Date.now();
      const worker = async () => {
        while (killedAt === 0 && next < MAX_VISITS && Date.now() - startedAt < MAX_LOAD_MS) {
          const i = next++;
          try {
            const res = await visit(`${victim.base}/early${i % LINKS}?n=${i}`);
            await res.arrayBuffer();
            if (res.status !== 302) throw new Error(`visit ${i}: status ${res.status}`);
            answeredAt.push(Date.now());
            if (answeredAt.length === 1) {
              setTimeout(() => {
                killedAt = Date.now();
                victim.child.kill('SIGKILL');
              }, KILL_AFTER_MS);
            }
          } catch (error) {
            if (killedAt === 0) throw error; // before the kill every visit is answered
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      assert.ok(killedAt > 0, `the load ended before the kill: ${answeredAt.length} answered`);
      assert.equal(await exited, 'SIGKILL');

      const answered = answeredAt.length;
      // Answered in the last interval before the kill, or on their way to the client as it came.
      const bound = answeredAt.filter((at) => at > killedAt - FLUSH_MS).length;
      const stored = await writtenTo(databaseUrl);
      const detail = `${answered} answered in ${killedAt - startedAt} ms, ${bound} of them in the last ${FLUSH_MS} ms; stored ${JSON.stringify(stored)}`;
      t.diagnostic(detail);
      assert.ok(answered > bound, `no visit answered before the last interval: ${detail}`);
      assert.ok(stored.rows <= answered, detail);
      assert.ok(
        stored.rows >= answered - bound,
        `lost ${answered - stored.rows} clicks, more than the last interval's: ${detail}`,
      );

      // Started again, the instance (its lease its own) rolls up the killed one's batches once their lease has run out.
      const restarted = await startServerProcess(env(), START_MS);
      servers.push(restarted);
      const deadline = Date.now() + 4 * LEASE_MS + 10_000;
      let now = await writtenTo(databaseUrl);
      while ((now.total < now.rows || now.clicks < now.rows) && Date.now() < deadline) {
        await sleep(100);
        now = await writtenTo(databaseUrl);
      }
      assert.deepEqual(
        now,
        { clicks: stored.rows, rows: stored.rows, bots: 0, total: stored.rows },
        `${detail}; after the restart ${JSON.stringify(now)}\n${restarted.output()}`,
      );
      restarted.child.kill('SIGTERM');
    });
  });
