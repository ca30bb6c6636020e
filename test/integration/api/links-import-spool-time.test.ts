// An import's upload has a window a margin short of the request timeout to arrive whole
// (docs/design/imports.md), on both engines: one that does not is cut with the route's own 408,
// never node:http's, and frees the person's and the workspace's place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { importFile, leaseHolders, trickle } from './import-support.ts';
import { unique } from './links-support.ts';
import { makeKey, makeWorkspace } from './workspaces-support.ts';

// A window of 3 s (upload-window.ts): the route's 408 and its linger end before node:http's 6 s.
const REQUEST_TIMEOUT_MS = 6000;

onEachEngine(
  'links API: an import upload past its time',
  (h) => {
    test("an upload still arriving at the request timeout is cut with a 408: nothing imported, and the person's place it held is free again", async () => {
      const person = await h().account();
      const team = await makeWorkspace(h(), person, 'Stalls');
      const teamKey = await makeKey(h(), person, team.id);
      const stalled = await trickle(h(), person.key, `alias,url\n${unique('stall')},https://example.com/stalled\n`);
      try {
        await eventually(
          'the upload claims its leases',
          async () => (await leaseHolders(h(), person.id, person.id)).person !== null,
        );
        const elsewhere = await importFile(h(), teamKey, 'url\nhttps://example.com/elsewhere\n');
        assert.equal(elsewhere.status, 429, 'the stalled upload holds the person');
        // The rest never comes.
        const [cut] = await stalled.connection.responses(1, REQUEST_TIMEOUT_MS + 20_000);
        assert.equal(cut!.status, 408, cut!.body);
        // The route's answer, not node:http's bare one: it says the upload's window.
        assert.deepEqual(JSON.parse(cut!.body), {
          message: 'The file did not arrive within 3 s, the most an upload may take; nothing was imported.',
          status: 408,
        });
        assert.equal(cut!.headers.connection, 'close');
      } finally {
        stalled.connection.close();
      }
      await eventually('its leases are given back', async () => {
        const held = await leaseHolders(h(), person.id, person.id);
        return held.workspace === null && held.person === null;
      });
      assert.equal(
        (
          await h()
            .server.container.storage.db.selectFrom('links')
            .select('id')
            .where('account_id', '=', person.id)
            .execute()
        ).length,
        0,
      );
      for (const key of [teamKey, person.key]) {
        const next = await importFile(h(), key, `alias,url\n${unique('next')},https://example.com/next\n`);
        assert.equal(next.status, 200, next.text);
        assert.equal(next.body.data.counts.created, 1);
      }
    });
  },
  { env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } },
);
