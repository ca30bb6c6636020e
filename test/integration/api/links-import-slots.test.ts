// The guards of POST /api/v1/links/import on both engines (docs/design/imports.md): an upload still
// arriving holds no instance slot, one upload or import at a time per person and per workspace,
// the instance's slots taken once the file is on disk, a lease lost before the import stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { addMember, makeKey, makeWorkspace } from './workspaces-support.ts';
import { importFile, leaseHolders, trickle } from './import-support.ts';
import { unique } from './links-support.ts';

const PERSON_BUSY =
  'This person is running an import already (in this or another workspace); try again once it has finished.';
const INSTANCE_FULL = 'This instance is running as many imports as it takes (1); try again shortly.';

onEachEngine(
  'links API: import slots and leases',
  (h) => {
    const db = () => h().server.container.storage.db;
    const linksOf = async (workspaceId: number) =>
      (await db().selectFrom('links').select('alias').where('account_id', '=', workspaceId).execute()).map(
        (r) => r.alias,
      );

    test("uploads still arriving hold no instance slot: another account imports meanwhile; the person's second upload, through another workspace, is refused at once", async () => {
      const person = await h().account();
      const team = await makeWorkspace(h(), person, 'Trickles');
      const teamKey = await makeKey(h(), person, team.id);
      const other = await h().account();
      const alias = unique('slow');
      const slow = await trickle(h(), person.key, `alias,url\n${alias},https://example.com/slow\n`);
      try {
        await eventually('the upload claims its workspace and its person', async () => {
          const held = await leaseHolders(h(), person.id, person.id);
          return held.workspace !== null && held.person !== null;
        });
        const second = await importFile(h(), teamKey, 'url\nhttps://example.com/second\n');
        assert.equal(second.status, 429, second.text);
        assert.equal(second.headers.get('retry-after'), '10');
        assert.deepEqual(second.body, { message: PERSON_BUSY, status: 429 });
        assert.deepEqual(await linksOf(team.id), [], 'nothing imported into the team');
        // IMPORT_CONCURRENCY is 1: the upload still arriving would hold it if it took it before its file was on disk.
        const meanwhile = await importFile(h(), other.key, `alias,url\n${unique('other')},https://example.com/other\n`);
        assert.equal(meanwhile.status, 200, meanwhile.text);
        assert.equal(meanwhile.body.data.counts.created, 1);
        await slow.finish();
        const [done] = await slow.connection.responses(1, 20_000);
        assert.equal(done!.status, 200, done!.body);
        assert.equal(JSON.parse(done!.body).data.counts.created, 1);
        assert.deepEqual(await linksOf(person.id), [alias]);
      } finally {
        slow.connection.close();
      }
      assert.deepEqual(
        await leaseHolders(h(), person.id, person.id),
        { workspace: null, person: null },
        'given back when done',
      );
      assert.equal(
        (await importFile(h(), teamKey, 'url\nhttps://example.com/after\n')).status,
        200,
        'the person may import again',
      );
    });

    test("a person's lease spans workspaces: their import anywhere refuses theirs in any other, not another member's", async () => {
      const person = await h().account();
      const member = await h().account();
      const team = await makeWorkspace(h(), person, 'Shared');
      await addMember(h(), person, team.id, member, 'editor');
      const personTeamKey = await makeKey(h(), person, team.id);
      const memberTeamKey = await makeKey(h(), member, team.id);
      // The person's import runs elsewhere (another instance, the CLI): their lease row.
      await db()
        .insertInto('import_person_leases')
        .values({ person_id: person.id, holder: 'another-instance', lease_until: Date.now() + 60_000 })
        .execute();
      for (const key of [person.key, personTeamKey]) {
        const busy = await importFile(h(), key, 'url\nhttps://example.com/busy\n');
        assert.equal(busy.status, 429, busy.text);
        assert.deepEqual(busy.body, { message: PERSON_BUSY, status: 429 });
      }
      assert.deepEqual(
        await leaseHolders(h(), team.id, member.id),
        { workspace: null, person: null },
        'the refusal left no lease of the workspace',
      );
      const members = await importFile(h(), memberTeamKey, `alias,url\n${unique('mem')},https://example.com/member\n`);
      assert.equal(members.status, 200, members.text);
      // That import ended: its lease runs out, and the person imports again.
      await db()
        .updateTable('import_person_leases')
        .set({ lease_until: Date.now() - 1 })
        .where('person_id', '=', person.id)
        .execute();
      const after = await importFile(h(), personTeamKey, `alias,url\n${unique('aft')},https://example.com/after\n`);
      assert.equal(after.status, 200, after.text);
      assert.equal((await leaseHolders(h(), team.id, person.id)).person, null, 'given back when done');
    });

    test("the instance's slots are taken once the file is on disk: refused at once when none is free, or once the upload is in", async () => {
      const busy = await h().account();
      const person = await h().account();
      const { importSlots } = h().server.container;
      // Another import runs on this instance, and takes its one slot.
      const running = await importSlots.acquire({ workspaceId: busy.id, personId: busy.id });
      try {
        const refused = await importFile(h(), person.key, 'url\nhttps://example.com/full\n');
        assert.equal(refused.status, 429, refused.text);
        assert.deepEqual(refused.body, { message: INSTANCE_FULL, status: 429 });
        assert.deepEqual(await leaseHolders(h(), person.id, person.id), { workspace: null, person: null });
      } finally {
        await running.release();
      }
      // The slot free on arrival and taken while the file arrived: refused once it is in, nothing imported.
      const slow = await trickle(h(), person.key, `alias,url\n${unique('late')},https://example.com/late\n`);
      try {
        await eventually(
          'the upload claims its leases',
          async () => (await leaseHolders(h(), person.id, person.id)).person !== null,
        );
        const meanwhile = await importSlots.acquire({ workspaceId: busy.id, personId: busy.id });
        try {
          await slow.finish();
          const [answer] = await slow.connection.responses(1, 20_000);
          assert.equal(answer!.status, 429, answer!.body);
          assert.equal(answer!.headers['retry-after'], '10');
          assert.deepEqual(JSON.parse(answer!.body), { message: INSTANCE_FULL, status: 429 });
        } finally {
          await meanwhile.release();
        }
      } finally {
        slow.connection.close();
      }
      assert.deepEqual(await linksOf(person.id), []);
      assert.deepEqual(
        await leaseHolders(h(), person.id, person.id),
        { workspace: null, person: null },
        'its leases given back',
      );
    });

    test('a lease lost while the file arrives (taken over once expired) stops the import before any batch: a 503, nothing written', async () => {
      const person = await h().account();
      const slow = await trickle(h(), person.key, `alias,url\n${unique('lost')},https://example.com/lost\n`);
      try {
        await eventually(
          'the upload claims its leases',
          async () => (await leaseHolders(h(), person.id, person.id)).workspace !== null,
        );
        // Another instance found the lease past its time and took it over.
        await db()
          .updateTable('import_leases')
          .set({ holder: 'another-instance' })
          .where('account_id', '=', person.id)
          .execute();
        await slow.finish();
        const [answer] = await slow.connection.responses(1, 20_000);
        assert.equal(answer!.status, 503, answer!.body);
        assert.match(JSON.parse(answer!.body).message, /^The import stopped midway: it no longer holds its lease/);
      } finally {
        slow.connection.close();
      }
      assert.deepEqual(await linksOf(person.id), []);
      assert.deepEqual(
        await leaseHolders(h(), person.id, person.id),
        { workspace: 'another-instance', person: null },
        "the other holder's lease untouched, its own given back",
      );
    });
  },
  { overrides: { tuning: { IMPORT_CONCURRENCY: 1 } } },
);
