// A link change and its deliveries are one transaction (docs/design/webhooks.md): when the outbox write
// fails, the change is rolled back and the caller gets the error, on both engines.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { unitOfWorkOn } from '../../../src/adapters/storage/transactions.ts';
import { LinkImporter } from '../../../src/core/links/import/link-importer.ts';
import type { CheckedRow, ImportOutcome, ImportRow } from '../../../src/core/links/import/import-row.ts';
import { checkImportRow } from '../../../src/core/links/import/check-import-row.ts';
import { UrlPolicy } from '../../../src/core/links/url-policy.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlSpaceStore } from '../../../src/adapters/storage/stores/space-store.ts';
import { SqlDomainStore } from '../../../src/adapters/storage/stores/domain-store.ts';
import { SqlPixelStore } from '../../../src/adapters/storage/stores/pixel-store.ts';
import type { AliasOwner } from '../../../src/core/links/link-store.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());

// Moves with real time; a test jumps it ahead to pass a link's date.
let offset = 0;
const clock = { now: () => Date.now() + offset };
const reported: unknown[] = [];
let paths = 0;

const EVENTS = ['link.created', 'link.updated', 'link.deleted', 'link.expired'];

async function hook(h: Harness, key: string): Promise<string> {
  const path = `/tx-hook/${++paths}`;
  const res = await h.request('POST', '/api/v1/webhooks', { key, json: { url: receiver.url + path, events: EVENTS } });
  assert.equal(res.status, 201, res.text);
  return path;
}

async function link(
  h: Harness,
  key: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; alias: string }> {
  const res = await h.request('POST', '/api/v1/links', { key, json: { url: 'https://example.com/x', ...fields } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** Every insert into the outbox fails from now on, as a full disk or a lost table would. */
async function breakOutbox(h: Harness): Promise<void> {
  const { db } = h.server.container.storage;
  if (h.engine === 'sqlite') {
    await sql`create trigger fail_deliveries before insert on webhook_deliveries begin select raise(abort, 'the outbox is failing'); end`.execute(
      db,
    );
    return;
  }
  await sql`create function fail_deliveries() returns trigger language plpgsql as $$ begin raise exception 'the outbox is failing'; end $$`.execute(
    db,
  );
  await sql`create trigger fail_deliveries before insert on webhook_deliveries for each row execute function fail_deliveries()`.execute(
    db,
  );
}

async function repairOutbox(h: Harness): Promise<void> {
  const { db } = h.server.container.storage;
  if (h.engine === 'sqlite') {
    await sql`drop trigger if exists fail_deliveries`.execute(db);
    return;
  }
  await sql`drop trigger if exists fail_deliveries on webhook_deliveries`.execute(db);
  await sql`drop function if exists fail_deliveries()`.execute(db);
}

async function linksOf(h: Harness, accountId: number) {
  return h.server.container.storage.db
    .selectFrom('links')
    .select(['id', 'alias', 'title', 'disabled', 'expiry_told'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

async function importFile(h: Harness, key: string, file: string) {
  const form = new FormData();
  form.append('file', new Blob([file]), 'links.csv');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return h.request('POST', '/api/v1/links/import', {
    key,
    body: await request.arrayBuffer(),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}

/** Finds no alias taken, as if each was taken by another writer just after the importer looked. */
class RacingLinkStore extends SqlLinkStore {
  override async aliasOwners(): Promise<Map<string, AliasOwner>> {
    return new Map();
  }
}

async function* rowsOf(rows: ImportRow[]): AsyncGenerator<CheckedRow[]> {
  yield rows.map((row) =>
    checkImportRow(row, { urls: new UrlPolicy(['https']), timeZone: 'UTC', strict: false, defaultPrivacy: 1 }),
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

onEachEngine(
  'webhooks: a change and its deliveries in one transaction',
  (h) => {
    afterEach(() => repairOutbox(h()));

    test('a create, update or delete whose outbox write fails answers 500 and leaves nothing written', async () => {
      const account = await h().account();
      const { key } = account;
      const path = await hook(h(), key);
      const kept = await link(h(), key, { alias: 'tx-kept', title: 'before' });
      await eventually('the first link.created', () => receiver.on(path).length === 1);
      await breakOutbox(h());

      const created = await h().request('POST', '/api/v1/links', {
        key,
        json: { url: 'https://example.com/lost', alias: 'tx-lost' },
      });
      assert.equal(created.status, 500, created.text);
      const updated = await h().request('PATCH', `/api/v1/links/${kept.id}`, { key, json: { title: 'after' } });
      assert.equal(updated.status, 500, updated.text);
      const deleted = await h().request('DELETE', `/api/v1/links/${kept.id}`, { key });
      assert.equal(deleted.status, 500, deleted.text);
      assert.deepEqual(
        (await linksOf(h(), account.id)).map((l) => [l.alias, l.title]),
        [['tx-kept', 'before']],
        'no link created, the title unchanged, the link still there',
      );

      await repairOutbox(h());
      // The alias was never taken: the insert went with its transaction.
      const again = await link(h(), key, { alias: 'tx-lost', url: 'https://example.com/found' });
      await eventually('the second link.created', () => receiver.on(path).length === 2);
      await settle();
      assert.deepEqual(
        receiver.on(path).map((r) => [r.json.type, r.json.data.link.alias]),
        [
          ['link.created', 'tx-kept'],
          ['link.created', again.alias],
        ],
        'nothing was told of the changes rolled back',
      );
    });

    test('a bulk change and an import batch whose outbox write fails answer 500 and change nothing (not even a new space)', async () => {
      const account = await h().account();
      const { key } = account;
      await hook(h(), key);
      const ids = [(await link(h(), key)).id, (await link(h(), key)).id];
      await breakOutbox(h());

      const disabled = await h().request('PATCH', '/api/v1/links/bulk', { key, json: { ids, action: 'disable' } });
      assert.equal(disabled.status, 500, disabled.text);
      const removed = await h().request('DELETE', '/api/v1/links/bulk', { key, json: { ids } });
      assert.equal(removed.status, 500, removed.text);
      const file =
        'url,alias,space\nhttps://example.com/1,tx-imp-1,Imported\nhttps://example.com/2,tx-imp-2,Imported\n';
      const imported = await importFile(h(), key, file);
      assert.equal(imported.status, 500, imported.text);
      const spaces = async () =>
        (await h().request('GET', '/api/v1/spaces', { key })).body.data.map((x: { name: string }) => x.name);
      assert.deepEqual(await spaces(), [], 'the new space went with the batch');
      assert.deepEqual(
        (await linksOf(h(), account.id)).map((l) => [l.id, l.disabled]),
        ids.map((id) => [id, 0]),
        'both links enabled and there, none imported',
      );

      await repairOutbox(h());
      const done = await importFile(h(), key, file);
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.data.counts.created, 2, 'the aliases were free: nothing of the failed batch stayed');
      assert.deepEqual(await spaces(), ['Imported']);
    });

    test('an import batch that meets an alias taken meanwhile goes on row by row in its transaction; the rows written are told', async () => {
      const { container } = h().server;
      const { db, engine } = container.storage;
      const other = await h().account();
      await link(h(), other.key, { alias: 'tx-race-taken' });
      const account = await h().account();
      const path = await hook(h(), account.key);
      const recordsOn = (d: typeof db) => ({
        links: new RacingLinkStore(d, engine),
        spaces: new SqlSpaceStore(d),
        domains: new SqlDomainStore(d),
        pixels: new SqlPixelStore(d),
      });
      const importer = new LinkImporter({
        ...recordsOn(db),
        clock,
        urls: new UrlPolicy(['https']),
        onEvent: container.hooks.onLinkEvent,
        unitOfWork: unitOfWorkOn(db, (trx, afterCommit) => ({
          ...recordsOn(trx),
          onEvent: container.hooks.linkEventsOn(trx, afterCommit),
        })),
      });
      const row = (line: number, alias: string): ImportRow => ({
        line,
        input: { url: `https://example.com/${alias}`, alias },
      });
      const outcomes: ImportOutcome[] = [];
      const report = await importer.run(
        account.id,
        rowsOf([row(2, 'tx-race-1'), row(3, 'tx-race-taken'), row(4, 'tx-race-2')]),
        {
          onConflict: 'skip',
          dryRun: false,
          actor: TEST_ACTOR,
          onOutcome: (o) => outcomes.push(o),
        },
      );
      assert.deepEqual(
        report.rows.map((r) => [r.status, r.alias]),
        [['skipped', 'tx-race-taken']],
        'only the row not created is listed',
      );
      assert.deepEqual(
        outcomes.sort((a, b) => a.line - b.line).map((r) => [r.status, r.alias, r.reason]),
        [
          ['created', 'tx-race-1', undefined],
          ['skipped', 'tx-race-taken', 'The alias was taken while importing.'],
          ['created', 'tx-race-2', undefined],
        ],
      );
      assert.deepEqual(
        (await linksOf(h(), account.id)).map((l) => l.alias),
        ['tx-race-1', 'tx-race-2'],
      );
      await eventually('two link.created', () => receiver.on(path).length === 2);
      assert.deepEqual(
        receiver
          .on(path)
          .map((r) => r.json.data.link.alias)
          .sort(),
        ['tx-race-1', 'tx-race-2'],
      );
    });

    test('the expiry sweep’s claim goes with its failed deliveries: the link is told once the outbox works again', async () => {
      const account = await h().account();
      const { key } = account;
      const path = await hook(h(), key);
      const iso = new Date(clock.now() + 3_600_000).toISOString();
      const dated = await link(h(), key, { expiration_date: iso.slice(0, 10), expiration_time: iso.slice(11, 16) });
      await eventually('the link.created', () => receiver.on(path).length === 1);
      await breakOutbox(h());
      const before = reported.length;
      offset += 2 * 3_600_000;
      await eventually('a failed round reported', () =>
        reported.slice(before).some((e) => String(e).includes('the outbox is failing')),
      );
      assert.deepEqual(
        (await linksOf(h(), account.id)).map((l) => [l.id, l.expiry_told]),
        [[dated.id, 0]],
        'the claim was rolled back',
      );
      await repairOutbox(h());
      await eventually('the link.expired', () => receiver.on(path).length === 2);
      assert.deepEqual(
        [receiver.on(path)[1]!.json.type, receiver.on(path)[1]!.json.data.link.id],
        ['link.expired', dated.id],
      );
    });
  },
  {
    env: { OUTBOUND_ALLOW_PRIVATE: 'true' },
    overrides: {
      clock,
      onError: (error) => reported.push(error),
      tuning: { WEBHOOK_POLL_MS: 50, WEBHOOK_EXPIRY_SWEEP_MS: 50 },
    },
  },
);
