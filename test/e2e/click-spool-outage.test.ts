// Issue 50: redirects that outlive the database, and their clicks. The compiled server on
// PostgreSQL through a TCP proxy; the proxy cut, real visits of a link the server holds and of one
// it answers from the redirect snapshot, past the click buffer (CLICK_BUFFER_MAX lowered to its
// least), so that clicks go to the spool on disk; /health says "redirects": "snapshot"
// meanwhile. The proxy restored: every click is written once, none lost, none twice: its rows
// and its link's counter (docs/design/clicks.md, "The spool").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { cliAccountKey, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { eventually } from '../support/eventually.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { proxiedPostgres, snapshotHolds, type ProxiedPostgres } from '../support/proxied-postgres.ts';
import { tuningEnv } from '../support/test-tuning.ts';

const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** The least buffer the writer takes; the visits are half as many again. */
const BUFFER = 1000;
const VISITS = 1500;
const AT_ONCE = 16;

/** A check that holds once the file has not been rewritten for five snapshot rounds (SNAPSHOT_ROUND_MS 200). */
function snapshotSettled(path: string): () => boolean {
  let last = { mtimeMs: -1, since: Date.now() };
  return () => {
    const { mtimeMs } = statSync(path);
    if (mtimeMs !== last.mtimeMs) last = { mtimeMs, since: Date.now() };
    return Date.now() - last.since >= 1000;
  };
}

describe(
  'clicks past the buffer during a PostgreSQL cut, spooled and written once',
  { skip: POSTGRES_SKIP ?? false },
  () => {
    let db: ProxiedPostgres;
    let server: ServerProcess;
    let key: string;
    const links: Record<'held' | 'snapshot', { id: number; alias: string }> = {
      held: { id: 0, alias: 'spool-held' },
      snapshot: { id: 0, alias: 'spool-snapshot' },
    };

    const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) =>
      eventually(what, check, { timeoutMs, everyMs: 100, explain: () => `server output:\n${server.output()}` });
    const visit = (alias: string, n: number) =>
      fetch(`${server.base}/${alias}?n=${n}`, {
        redirect: 'manual',
        headers: { 'user-agent': UA, accept: 'text/html' },
      });
    const spoolFiles = () => {
      try {
        return readdirSync(`${server.env.SNAPSHOT_PATH}.click-spool`).length;
      } catch {
        return 0;
      }
    };

    before(async () => {
      db = await proxiedPostgres();
      server = await startServerProcess({
        DATABASE_URL: db.url,
        CLICK_FLUSH_INTERVAL_MS: '200',
        ...tuningEnv({ CLICK_BUFFER_MAX: BUFFER, STATS_FLUSH_INTERVAL_MS: 200, SNAPSHOT_ROUND_MS: 200 }),
      });
      key = await cliAccountKey(server.env, 'spool@example.com');
      for (const link of Object.values(links)) {
        const created = await fetch(`${server.base}/api/v1/links`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ url: `https://example.com/${link.alias}`, alias: link.alias }),
        });
        assert.equal(created.status, 201, await created.clone().text());
        link.id = (await created.json()).data.id as number;
      }
    });

    after(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await db?.close();
    });

    test(`${VISITS} visits during the cut: the spool takes what the buffer cannot; back, each click written once`, async () => {
      // One link held in memory, the other never visited: it can only come from the snapshot.
      assert.equal((await visit(links.held.alias, 0)).status, 302);
      await until('the first click written and counted', async () => {
        const first = await db.clicksOf(links.held.id);
        return first.rows === 1 && first.counter === 1;
      });
      await until('the snapshot to hold both links', () =>
        snapshotHolds(server.env.SNAPSHOT_PATH!, [links.held.alias, links.snapshot.alias]),
      );
      // A change the cache heard of after a snapshot began (the first click's account, say)
      // makes its links answer 503 from it until the next round writes it again: the cut waits
      // until rounds have stopped rewriting the file, so the last change is in it.
      await until('the snapshot to hold every change', snapshotSettled(server.env.SNAPSHOT_PATH!));

      await db.proxy.cut();
      const started = Date.now();
      const answered = { held: 0, snapshot: 0 };
      let next = 0;
      const visitor = async () => {
        for (let n = next++; n < VISITS; n = next++) {
          const which = n % 2 === 0 ? 'held' : 'snapshot';
          const res = await visit(links[which].alias, n);
          assert.equal(res.status, 302, `visit ${n} (${which}) during the cut: ${await res.text()}`);
          assert.equal(res.headers.get('location'), `https://example.com/${links[which].alias}?n=${n}`);
          answered[which]++;
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, visitor));
      const health = await fetch(`${server.base}/health`);
      assert.equal(health.status, 503);
      const said = await health.json();
      assert.deepEqual([said.status, said.database, said.redirects], ['unavailable', 'down', 'snapshot']);
      await until('clicks past the buffer in the spool on disk', () => spoolFiles() > 0, 10_000);
      assert.doesNotMatch(server.output(), /dropped/, 'no click dropped: the spool took them');
      assert.ok(Date.now() - started < 30_000, 'the visits took well under a minute');

      await db.proxy.restore();
      const expected = { held: 1 + answered.held, snapshot: answered.snapshot };
      const written = async () => ({
        held: await db.clicksOf(links.held.id),
        snapshot: await db.clicksOf(links.snapshot.id),
      });
      await until('every click of the cut written and counted', async () => {
        const now = await written();
        return (['held', 'snapshot'] as const).every(
          (w) => now[w].rows >= expected[w] && now[w].counter >= expected[w],
        );
      });
      await until('the spool emptied', () => spoolFiles() === 0, 10_000);
      // A moment more: a segment written twice would show now.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = await written();
      assert.deepEqual(now, {
        held: { rows: expected.held, counter: expected.held },
        snapshot: { rows: expected.snapshot, counter: expected.snapshot },
      });
      const segments = await db.admin.query<{ n: number }>('select count(*)::int as n from click_spool_segments');
      assert.ok(segments.rows[0]!.n >= 1, 'the spooled clicks were written as segments, each with its mark');
      assert.doesNotMatch(server.output(), /programmer error|could not be written/);
      assert.equal(server.child.exitCode, null, 'the server is still up');
    });
  },
);
