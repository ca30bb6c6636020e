// /links/import on both engines: the upload (multipart, its CSRF token in the body), the dry run
// and its kept file, the import with its report, tags kept, and a bad form named field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, csrfOf } from '../../support/web-client.ts';
import { confirm, count, hidden, slowLeaseRelease, upload } from './link-import-support.ts';
import { apiLinks, webAccount } from '../../support/web-resources.ts';
import { makeLink, unique } from '../api/links-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('web: importing links', (h) => {
  test('the form: multipart with its token in the body, a format select of every format, linked from the list', async () => {
    const { client } = await webAccount(h());
    const page = await client.get('/links/import');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('action="/links/import" enctype="multipart/form-data"'));
    assert.ok(page.text.includes(`name="_csrf" value="${csrfOf(page.text)}"`));
    for (const f of ['', 'bitly-csv', 'shlink-csv', 'csv', 'phpshort-csv', 'linkpix-json'])
      assert.ok(page.text.includes(`<option value="${f}"`), f);
    assert.match((await client.get('/links')).text, /href="\/links\/import"/);
  });

  test('a Bitly CSV with tags: the dry run says created, renamed and skipped and writes nothing; the import writes them', async () => {
    const { client, key } = await webAccount(h());
    const taken = await makeLink(h(), key, { alias: unique('taken') });
    const [a, b] = [unique('bt'), unique('bt')];
    const file = `Title,Short link,Long URL,Created,Tags\r\nOne,bit.ly/${a},https://example.com/1,2024-01-01,"news, Spring sale"\r\nTwo,bit.ly/${taken.alias},https://example.com/2,2024-01-02,x\r\nThree,bit.ly/${b},not a url,2024-01-03,\r\nAgain,bit.ly/${a},https://example.com/4,2024-01-04,\r\n`;
    const skip = await upload(client, { format: '', on_conflict: 'skip', mode: 'preview' }, file);
    assert.equal(skip.status, 200, skip.text);
    assert.match(skip.text, /Dry run: nothing written yet/);
    assert.deepEqual(
      ['created', 'renamed', 'skipped', 'error'].map((s) => count(skip.text, s)),
      [1, 0, 2, 1],
      'the taken alias and the one twice in the file skipped',
    );
    assert.match(skip.text, /The alias appears earlier in the file\./);
    const dry = await upload(client, { format: '', on_conflict: 'rename', mode: 'preview' }, file);
    assert.deepEqual(
      ['created', 'renamed', 'skipped', 'error'].map((s) => count(dry.text, s)),
      [1, 2, 0, 1],
    );
    assert.match(dry.text, /Bitly \(CSV\)/);
    assert.match(dry.text, /data-ignored>Created</);
    assert.equal((await apiLinks(h(), key)).length, 1, 'the dry runs wrote nothing');
    const stale = await client.post(
      '/links/import/run',
      { upload: hidden(skip.text, 'upload') ?? '', format: '', on_conflict: 'skip' },
      { from: '/links/import' },
    );
    assert.equal(stale.status, 422, 'a newer dry run replaces the kept file');
    assert.match(stale.text, /id="f-file-error">The uploaded file is no longer kept/);

    const token = hidden(dry.text, 'upload');
    assert.ok(token);
    const done = await client.post(
      '/links/import/run',
      { upload: token, format: hidden(dry.text, 'format') ?? '', on_conflict: 'rename' },
      { from: '/links/import' },
    );
    assert.equal(done.status, 200, done.text);
    assert.match(done.text, /Import report/);
    assert.equal(count(done.text, 'created'), 1);
    assert.equal(count(done.text, 'renamed'), 2);
    const links = await apiLinks(h(), key);
    const byAlias = Object.fromEntries(links.map((l: Json) => [l.alias, [...l.tags].sort()]));
    assert.deepEqual(byAlias[a], ['Spring sale', 'news']);
    assert.deepEqual(byAlias[`${taken.alias}-2`], ['x']);

    const again = await client.post(
      '/links/import/run',
      { upload: token, format: '', on_conflict: 'rename' },
      { from: '/links/import' },
    );
    assert.equal(again.status, 422, 'a kept file is imported once');
    assert.match(again.text, /no longer kept/);
  });

  test('Import now without a dry run; a bad form is a 422 naming the field; no token is a 403', async () => {
    const { client, key } = await webAccount(h());
    const alias = unique('now');
    const now = await upload(
      client,
      { mode: 'import', on_conflict: 'skip' },
      `url,alias,tags\r\nhttps://example.com/,${alias},a|b\r\n`,
    );
    assert.equal(now.status, 200, now.text);
    assert.match(now.text, /Import report/);
    assert.deepEqual([...(await apiLinks(h(), key))[0].tags].sort(), ['a', 'b']);

    const noFile = await upload(client, { mode: 'preview' }, null);
    assert.equal(noFile.status, 422);
    assert.match(noFile.text, /id="f-file-error">Choose a file to import\./);
    const badFormat = await upload(client, { format: 'nope', on_conflict: 'explode' }, 'url\r\nhttps://x.test/\r\n');
    assert.equal(badFormat.status, 422);
    assert.match(badFormat.text, /id="f-format-error"/);
    assert.match(badFormat.text, /id="f-on_conflict-error"/);
    const unknown = await upload(client, {}, 'hello world\n');
    assert.equal(unknown.status, 422);
    assert.match(
      unknown.text,
      /id="f-format-error">The file&#39;s format was not recognised|id="f-format-error">The file's format was not recognised/,
    );
    assert.equal((await upload(client, { mode: 'import' }, 'url\r\nhttps://x.test/\r\n', null)).status, 403);
    assert.equal((await apiLinks(h(), key)).length, 1, 'nothing written by the refused forms');
  });

  test('a confirmation right after its dry run is never refused as busy: the leases are back before the page is sent', async () => {
    const { client, key } = await webAccount(h());
    const undo = slowLeaseRelease(h().server.container.importSlots, 150);
    try {
      // Each form's token read from the page before it: every post follows its page at once.
      let token = await client.csrf('/links/import');
      for (let round = 0; round < 4; round++) {
        const alias = unique(`race${round}`);
        const dry = await upload(
          client,
          { on_conflict: 'skip', mode: 'preview' },
          `url,alias\r\nhttps://example.com/${round},${alias}\r\n`,
          token,
        );
        assert.equal(dry.status, 200, dry.text);
        const done = await confirm(client, dry.text);
        assert.equal(done.status, 200, `round ${round}: ${done.text}`);
        assert.equal(count(done.text, 'created'), 1);
        token = csrfOf(done.text);
      }
    } finally {
      undo();
    }
    assert.equal((await apiLinks(h(), key)).length, 4);
  });

  test('the kept file is in the database until imported; past its hour it is refused, and the job removes it', async () => {
    const { client } = await webAccount(h());
    const { keptImports, storage } = h().server.container;
    const rows = async () => (await storage.db.selectFrom('kept_imports').select('user_id').execute()).length;
    const before = await rows();
    const file = `url,alias\r\nhttps://example.com/k,${unique('kept')}\r\n`;
    const dry = await upload(client, { on_conflict: 'skip', mode: 'preview' }, file);
    assert.equal(await rows(), before + 1);
    assert.equal((await upload(client, { on_conflict: 'skip', mode: 'preview' }, file)).status, 200);
    assert.equal(await rows(), before + 1, 'a new dry run replaces the last');
    assert.equal((await confirm(client, dry.text)).status, 422, 'the replaced one is gone');
    const again = await upload(client, { on_conflict: 'skip', mode: 'preview' }, file);
    assert.equal(await keptImports.removeExpired(Date.now() + 3_600_001), 1);
    const late = await confirm(client, again.text);
    assert.equal(late.status, 422);
    assert.match(late.text, /id="f-file-error">The uploaded file is no longer kept/);
    const last = await upload(client, { on_conflict: 'skip', mode: 'preview' }, file);
    assert.equal((await confirm(client, last.text)).status, 200);
    assert.equal(await rows(), before, 'taken by its import');
  });

  test('signed out: the page sends to sign in', async () => {
    const anonymous = new WebClient(h().baseUrl);
    assert.equal((await anonymous.get('/links/import')).status, 303);
  });
});
