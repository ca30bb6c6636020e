// Imports tell webhooks as the API's own changes do (api.md §14–§15): through the API and the CLI's command, on both engines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { eventually } from '../../support/eventually.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { importCommand } from '../../../src/adapters/cli/import-command.ts';

const receiver = new WebhookReceiver();
const dir = mkdtempSync(join(tmpdir(), 'linkpix-import-events-'));
before(() => receiver.start());
after(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});
let paths = 0;

async function hook(h: Harness, key: string): Promise<string> {
  const path = `/import-hook/${++paths}`;
  const res = await h.request('POST', '/api/v1/webhooks', {
    key,
    json: { url: receiver.url + path, events: ['link.created', 'link.updated'] },
  });
  assert.equal(res.status, 201, res.text);
  return path;
}

async function importViaApi(h: Harness, key: string, file: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file]), 'links.csv');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const res = await h.request('POST', '/api/v1/links/import', {
    key,
    body: await request.arrayBuffer(),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const events = (path: string) =>
  receiver.on(path).map((r) => [r.json.type, r.json.data.link.alias, r.json.data.link.url]);

onEachEngine(
  'webhooks: imported links',
  (h) => {
    test('the API import tells link.created per link written; a dry run tells nothing; replace tells link.updated', async () => {
      const { key } = await h().account();
      const path = await hook(h(), key);
      const file = 'url,alias\nhttps://example.com/1,ev-api-1\nnope,ev-api-bad\nhttps://example.com/2,ev-api-2\n';
      const dry = await importViaApi(h(), key, file, { dry_run: 'true' });
      assert.equal(dry.counts.created, 2);
      await settle();
      assert.deepEqual(receiver.on(path), [], 'a dry run writes nothing, so tells nothing');
      const done = await importViaApi(h(), key, file);
      assert.deepEqual(done.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 1 });
      await eventually('two link.created', () => receiver.on(path).length === 2);
      assert.deepEqual(events(path).sort(), [
        ['link.created', 'ev-api-1', 'https://example.com/1'],
        ['link.created', 'ev-api-2', 'https://example.com/2'],
      ]);
      // Created rows are only counted in the report: the links are read back.
      const listed = await h().request('GET', '/api/v1/links?per_page=100', { key });
      const ids = listed.body.data.map((l: { id: number }) => l.id);
      assert.deepEqual(
        receiver
          .on(path)
          .map((r) => r.json.data.link.id)
          .sort(),
        ids.sort(),
      );
      const again = await importViaApi(h(), key, file);
      assert.equal(again.counts.skipped, 2);
      await settle();
      assert.equal(receiver.on(path).length, 2, 'a skipped row changes nothing, so tells nothing');
      const replaced = await importViaApi(h(), key, 'url,alias\nhttps://example.com/new,ev-api-1\n', {
        on_conflict: 'replace',
      });
      assert.equal(replaced.counts.replaced, 1);
      await eventually('the link.updated', () => receiver.on(path).length === 3);
      assert.deepEqual(events(path)[2], ['link.updated', 'ev-api-1', 'https://example.com/new']);
    });

    test('the CLI’s import command tells the same', async () => {
      const account = await h().account();
      const path = await hook(h(), account.key);
      const file = join(dir, `cli-${h().engine}.csv`);
      writeFileSync(file, 'url,alias\nhttps://example.com/c1,ev-cli-1\nhttps://example.com/c2,ev-cli-2\n');
      const deps = { ...h().server.container, importMaxBytes: 1 << 20, progress: null };
      const dry = await importCommand.run(deps, { email: account.email, 'dry-run': 'true' }, [file]);
      assert.equal(dry.counts.created, 2);
      await settle();
      assert.deepEqual(receiver.on(path), []);
      const done = await importCommand.run(deps, { email: account.email }, [file]);
      assert.equal(done.counts.created, 2);
      await eventually('two link.created', () => receiver.on(path).length === 2);
      assert.deepEqual(events(path).sort(), [
        ['link.created', 'ev-cli-1', 'https://example.com/c1'],
        ['link.created', 'ev-cli-2', 'https://example.com/c2'],
      ]);
      writeFileSync(file, 'url,alias\nhttps://example.com/c3,ev-cli-2\n');
      const replaced = await importCommand.run(deps, { email: account.email, 'on-conflict': 'replace' }, [file]);
      assert.equal(replaced.counts.replaced, 1);
      await eventually('the link.updated', () => receiver.on(path).length === 3);
      assert.deepEqual(events(path)[2], ['link.updated', 'ev-cli-2', 'https://example.com/c3']);
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, overrides: { tuning: { WEBHOOK_POLL_MS: 50 } } },
);
