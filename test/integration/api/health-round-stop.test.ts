// A stop during a destination-check round (docs/design/health.md, Rounds): the server's close
// aborts the round, its requests to a destination that hangs and its waits in the host gate, so
// the close ends well inside a supervisor's grace, writes every buffered click, and marks no link
// broken because of the abort.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { ENGINES, startHarness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { connect, sqlitePath } from '../../../src/adapters/storage/connect.ts';
import { makeLink } from './links-support.ts';

/** The first round comes an interval after the start: the links made by then, it claims them all. */
/** Well inside SHUTDOWN_TIMEOUT_MS (10 s): the round alone would take the check timeout (60 s) a link. */
const CLOSE_WITHIN_MS = 2500;
const LINKS = 5;
const VISITS = 3;

let destination: HttpServer;
let hangUrl = '';
let asked = 0;
before(async () => {
  // Answers nothing, ever: a check of it ends only by its timeout, or by the stop.
  destination = createServer(() => void asked++);
  await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
  hangUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}`;
});
after(() => {
  destination.closeAllConnections();
  destination.close();
});

for (const engine of ENGINES) {
  describe(`a stop cuts a destination-check round short [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    test('the close ends at once, the buffered clicks are written, no link is recorded', async () => {
      const h = await startHarness(engine.name, {
        env: { HEALTH_CHECK_INTERVAL_HOURS: '24', OUTBOUND_ALLOW_PRIVATE: 'true', CLICK_FLUSH_INTERVAL_MS: '60000' },
        overrides: { tuning: { HEALTH_ROUND_MS: 1000, HEALTH_CHECK_TIMEOUT_MS: 60_000, HEALTH_HOST_SPACING_MS: 1000 } },
      });
      const { key } = await h.account();
      const askedBefore = asked;
      const links = [];
      for (let i = 0; i < LINKS; i++) links.push(await makeLink(h, key, { url: `${hangUrl}/page/${i}` }));
      await eventually('the round has asked the destination', () => asked > askedBefore);
      for (let i = 0; i < VISITS; i++) {
        const res = await h.request('GET', `/${links[0].alias}`);
        assert.equal(res.status, 302, res.text);
      }
      const started = performance.now();
      await h.server.close();
      const ms = performance.now() - started;
      assert.ok(ms < CLOSE_WITHIN_MS, `the close took ${Math.round(ms)} ms`);
      assert.equal(asked - askedBefore, 1, 'one request at a time to the host: the others waited in the gate');
      const storage = connect(h.config.DATABASE_URL, { schema: h.pgSchema });
      try {
        const clicks = await storage.db
          .selectFrom('clicks')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('link_id', '=', links[0].id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(clicks.n), VISITS, 'every buffered click written');
        const recorded = await storage.db
          .selectFrom('link_health')
          .select(['link_id', 'status'])
          .where('status', '!=', 'unknown')
          .execute();
        assert.deepEqual(recorded, [], 'an aborted check records no result');
      } finally {
        await storage.close();
        await dropDatabase(h.config.DATABASE_URL, h.pgSchema);
      }
    });
  });
}

/** What the harness's close would remove: its server is closed already, by the test. */
async function dropDatabase(url: string, schema: string | undefined): Promise<void> {
  if (schema === undefined) return rmSync(dirname(sqlitePath(url)), { recursive: true, force: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema ${schema} cascade`);
  } finally {
    await client.end();
  }
}
