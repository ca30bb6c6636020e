// The import page on two instances sharing one database, no sticky sessions: the dry run on one,
// its confirmation on the other, which finds the kept file in the database, never on a disk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ENGINES, startHarness, type Harness } from '../../support/harness.ts';
import { WebClient } from '../../support/web-client.ts';
import { apiLinks, webAccount } from '../../support/web-resources.ts';
import { unique } from '../api/links-support.ts';
import { confirm, count, upload } from './link-import-support.ts';

/** The same browser on another instance: its cookies (the session, the CSRF binding) go along. */
function sameBrowserOn(h: Harness, client: WebClient): WebClient {
  const other = new WebClient(h.baseUrl);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
}

for (const engine of ENGINES) {
  describe(`web: importing on two instances of one database [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    let a: Harness;
    let b: Harness;

    before(async () => {
      a = await startHarness(engine.name);
      // SQLite: a second app on the first's file; PostgreSQL: on its schema.
      b =
        engine.name === 'postgres'
          ? await startHarness('postgres', { pgSchema: a.pgSchema! })
          : await startHarness('sqlite', { env: { DATABASE_URL: a.config.DATABASE_URL } });
    });

    after(async () => {
      await b?.close();
      await a?.close();
    });

    test('a dry run on instance A, its confirmation on instance B: the links imported, the kept file gone', async () => {
      const { client: onA, key } = await webAccount(a);
      const onB = sameBrowserOn(b, onA);
      const [one, two] = [unique('inst'), unique('inst')];
      const file = `url,alias,tags\r\nhttps://example.com/1,${one},a\r\nhttps://example.com/2,${two},\r\n`;
      const dry = await upload(onA, { format: 'csv', on_conflict: 'skip', mode: 'preview' }, file);
      assert.equal(dry.status, 200, dry.text);
      assert.equal(count(dry.text, 'created'), 2);
      const onDisk = (await readdir(tmpdir())).filter((name) => name.startsWith('linkpix-import-kept-'));
      assert.deepEqual(onDisk, [], 'nothing kept on this machine’s disk');
      const kept = await b.server.container.storage.db.selectFrom('kept_imports').select('format').execute();
      assert.deepEqual(kept, [{ format: 'csv' }], 'the file is in the database, with the format chosen');

      const done = await confirm(onB, dry.text);
      assert.equal(done.status, 200, done.text);
      assert.match(done.text, /Import report/);
      assert.equal(count(done.text, 'created'), 2);
      assert.deepEqual((await apiLinks(b, key)).map((l) => l.alias).sort(), [one, two].sort());
      assert.equal(
        (await a.server.container.storage.db.selectFrom('kept_imports').select('format').execute()).length,
        0,
      );
      const again = await confirm(onA, dry.text);
      assert.equal(again.status, 422, 'imported once, whichever instance is asked again');
      assert.match(again.text, /no longer kept/);
    });
  });
}
