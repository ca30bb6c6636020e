// POST /api/v1/links/import on both engines: the round trip of the export, conflicts, bad input, tenancy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { assertInvalid, makeLink, makeSpace, unique } from './links-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const LIMIT = 65536;

/** A multipart body as a browser or curl sends it: the file (if any) under `file`. */
const multipart = (file: string | null, fields: Record<string, string> = {}) =>
  multipartBody(file === null ? [] : [{ field: 'file', bytes: file, name: 'links.txt' }], fields);

async function importFile(h: Harness, key: string, file: string | null, fields: Record<string, string> = {}) {
  return h.request('POST', '/api/v1/links/import', { key, ...(await multipart(file, fields)) });
}

async function imported(h: Harness, key: string, file: string, fields: Record<string, string> = {}) {
  const res = await importFile(h, key, file, fields);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** What a link is, apart from where it is stored and when. */
const essence = (r: Json) => ({
  alias: r.alias,
  url: r.url,
  title: r.title,
  target_type: r.target_type,
  country_target: r.country_target,
  platform_target: r.platform_target,
  language_target: r.language_target,
  rotation_target: r.rotation_target,
  disabled: r.disabled,
  privacy: r.privacy,
  expiration_url: r.expiration_url,
  expiration_clicks: r.expiration_clicks,
  ends_at: r.ends_at,
  space: r.space?.name ?? null,
  rules: r.rules,
  ios_url: r.ios_url,
  android_url: r.android_url,
});

async function exported(h: Harness, key: string, format: 'csv' | 'json') {
  const res = await h.request('GET', `/api/v1/links/export?format=${format}`, { key });
  assert.equal(res.status, 200);
  return res.text;
}

onEachEngine(
  'links API: import',
  (h) => {
    async function variedLinks(key: string) {
      const space = await makeSpace(h(), key, '=Space, "quoted"');
      await makeLink(h(), key, {
        alias: unique('-dash_'),
        title: '=HYPERLINK("http://x","y"), with\nlines',
        space: space.id,
        privacy: 1,
        expiration_url: 'https://example.com/expired',
        expiration_clicks: 10,
        expiration_date: '2099-01-02',
        expiration_time: '03:04',
        target_type: 1,
        country: [
          { key: 'US', value: 'https://us.example.com/' },
          { key: 'FR', value: 'https://fr.example.com/?a=1,2' },
        ],
        platform: [{ key: 'iOS', value: 'https://ios.example.com/' }],
        language: [{ key: 'de', value: 'https://de.example.com/' }],
        rotation: [{ value: 'https://r1.example.com/' }, { value: 'https://r2.example.com/' }],
      });
      await makeLink(h(), key, {
        title: "'=already quoted",
        ios_url: 'https://app.example.com/ios',
        android_url: 'https://app.example.com/android',
      });
      await makeLink(h(), key, {
        disabled: 1,
        title: '@mention',
        space: space.id,
        rules: JSON.stringify([
          {
            name: 'Office, "hours"',
            when: {
              time: { days: ['mon'], from: '09:00', to: '17:00', tz: 'Europe/Berlin' },
              not: { country: ['US'] },
            },
            url: 'https://o.example.com/',
            android_url: 'https://app.example.com/o',
          },
          {
            when: {},
            split: [
              { url: 'https://x.example.com/', weight: 70 },
              { url: 'https://y.example.com/', weight: 30 },
            ],
          },
        ]),
      });
    }

    for (const format of ['csv', 'json'] as const) {
      test(`round trip (${format}): export, import on an empty account, the same links; again: nothing new`, async () => {
        const from = await h().account(undefined, 'Europe/Paris');
        await variedLinks(from.key);
        const file = await exported(h(), from.key, format);
        const a = JSON.parse(await exported(h(), from.key, 'json')).links.map(essence);
        // Aliases are the service's, not the account's: the links leave before they come back.
        const gone = await h().request('DELETE', '/api/v1/links/bulk', { key: from.key, json: { filter: {} } });
        assert.equal(gone.body.data.count, 3);
        const to = await h().account(undefined, 'America/New_York');
        const report = await imported(h(), to.key, file);
        assert.equal(report.format, `linkpix-${format}`);
        assert.deepEqual(report.counts, { created: 3, replaced: 0, renamed: 0, skipped: 0, error: 0 });
        const b = JSON.parse(await exported(h(), to.key, 'json')).links.map(essence);
        assert.deepEqual(b, a);
        const again = await imported(h(), to.key, file);
        assert.deepEqual(again.counts, { created: 0, replaced: 0, renamed: 0, skipped: 3, error: 0 });
        assert.equal(JSON.parse(await exported(h(), to.key, 'json')).links.length, 3);
      });
    }

    test('a malformed row is reported and the rest imported; a dry run writes nothing', async () => {
      const { key } = await h().account();
      const file =
        'url,alias\r\nhttps://example.com/a,imp-a\r\nhttps://example.com/b,imp-b,extra\r\nnope,imp-c\r\nhttps://example.com/d,imp-d\r\n';
      const dry = await imported(h(), key, file, { dry_run: 'true' });
      assert.equal(dry.dry_run, true);
      assert.deepEqual(dry.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 2 });
      assert.equal(JSON.parse(await exported(h(), key, 'json')).links.length, 0);
      const report = await imported(h(), key, file);
      assert.equal(report.format, 'csv');
      assert.deepEqual(
        report.rows.map((r: Json) => [r.line, r.status]),
        [
          [3, 'error'],
          [4, 'error'],
        ],
        'only the rows not created are listed',
      );
      assert.deepEqual(report.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 2 });
      assert.match(report.rows[0].reason, /Malformed CSV row/);
      assert.deepEqual(Object.keys(report.rows[1].errors), ['url']);
      assert.deepEqual(report.columns.alias, 'alias');
    });

    test('on_conflict: skip keeps the link, rename takes a free variant, replace overwrites the account’s own only', async () => {
      const mine = await h().account();
      const theirs = await h().account();
      const own = await makeLink(h(), mine.key, { alias: 'conf-own', url: 'https://example.com/old' });
      const foreign = await makeLink(h(), theirs.key, { alias: 'conf-theirs', url: 'https://example.com/theirs' });
      const file = 'url,alias\nhttps://example.com/new,conf-own\nhttps://example.com/new,conf-theirs\n';
      const skip = await imported(h(), mine.key, file);
      assert.deepEqual(skip.counts, { created: 0, replaced: 0, renamed: 0, skipped: 2, error: 0 });
      const rename = await imported(h(), mine.key, file, { on_conflict: 'rename' });
      assert.deepEqual(
        rename.rows.map((r: Json) => [r.status, r.alias]),
        [
          ['renamed', 'conf-own-2'],
          ['renamed', 'conf-theirs-2'],
        ],
      );
      const replace = await imported(h(), mine.key, file, { on_conflict: 'replace' });
      assert.deepEqual(
        replace.rows.map((r: Json) => r.status),
        ['replaced', 'skipped'],
      );
      assert.equal(replace.rows[0].id, own.id);
      assert.equal(
        (await h().request('GET', `/api/v1/links/${own.id}`, { key: mine.key })).body.data.url,
        'https://example.com/new',
      );
      assert.equal(
        (await h().request('GET', `/api/v1/links/${foreign.id}`, { key: theirs.key })).body.data.url,
        'https://example.com/theirs',
        'never another account’s',
      );
    });

    test('bad input: 422 naming the field; a file over the limit: 413 before it is read whole', async () => {
      const { key } = await h().account();
      assertInvalid(await importFile(h(), key, null), ['file']);
      assertInvalid(
        await importFile(h(), key, 'url\nhttps://example.com\n', { on_conflict: 'overwrite', format: 'nope' }),
        ['on_conflict', 'format'],
      );
      assertInvalid(await importFile(h(), key, 'just some words\n'), ['format']);
      const big = await importFile(h(), key, `url\n${'https://example.com/x\n'.repeat(LIMIT / 20)}`);
      assert.equal(big.status, 413);
      assert.match(big.body.message, /larger than 65536 bytes/);
      const json = await h().request('POST', '/api/v1/links/import', {
        key,
        json: { file: 'url\nhttps://example.com\n' },
      });
      assertInvalid(json, ['file']);
    });

    test('bitly-csv: the API’s `link` column is the short link, its back-half the alias', async () => {
      const { key } = await h().account();
      const a = unique('bl');
      const file = `link,long_url,title\nhttps://bit.ly/${a}-1,https://example.com/1,One\nbit.ly/${a}-2,https://example.com/2,Two\n`;
      const report = await imported(h(), key, file, { format: 'bitly-csv' });
      assert.deepEqual(report.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 0 });
      assert.equal(report.random_aliases, 0);
      assert.deepEqual(report.columns, { alias: 'link', url: 'long_url', title: 'title', tags: null });
      assert.deepEqual(report.rows, []);
      const links = JSON.parse(await exported(h(), key, 'json')).links.map((l: Json) => l.alias);
      assert.deepEqual(links.sort(), [`${a}-1`, `${a}-2`]);
    });

    test('a file without its format’s alias column: the columns recognised and every random alias told; strict=1 refuses it and writes nothing', async () => {
      const { key } = await h().account();
      const file = 'long_url,title\nhttps://example.com/1,One\nhttps://example.com/2,Two\n';
      const strict = await importFile(h(), key, file, { format: 'bitly-csv', strict: '1' });
      assertInvalid(strict, ['file']);
      assert.match(
        strict.body.message.file[0],
        /no alias column \(bitly-csv reads it from bitlink, Short link, link\); columns recognised: long_url \(url\), title/,
      );
      assert.equal(JSON.parse(await exported(h(), key, 'json')).links.length, 0, 'nothing written');
      const report = await imported(h(), key, file, { format: 'bitly-csv' });
      assert.deepEqual(report.columns, { alias: null, url: 'long_url', title: 'title', tags: null });
      assert.match(report.warnings[0], /no alias column .* Every row gets a random alias\./);
      assert.equal(report.random_aliases, 2);
      assert.deepEqual(
        report.rows.map((r: Json) => [r.line, r.status, r.notes]),
        [
          [2, 'created', ['The row has no alias: a random one was given.']],
          [3, 'created', ['The row has no alias: a random one was given.']],
        ],
      );
      const aliases = JSON.parse(await exported(h(), key, 'json')).links.map((l: Json) => l.alias);
      assert.deepEqual(aliases.sort(), report.rows.map((r: Json) => r.alias).sort());
      // Strict with the column present: a row with an empty alias is an error, the others imported.
      const some = await imported(
        h(),
        key,
        `alias,url\n${unique('st')},https://example.com/a\n,https://example.com/b\n`,
        { strict: 'true' },
      );
      assert.deepEqual(some.counts, { created: 1, replaced: 0, renamed: 0, skipped: 0, error: 1 });
      assert.deepEqual(Object.keys(some.rows[0].errors), ['alias']);
    });

    test('one import per account at a time, across instances (a lease row); one past its time is taken over', async () => {
      const { id, key } = await h().account();
      const db = h().server.container.storage.db;
      await db
        .insertInto('import_leases')
        .values({ account_id: id, holder: 'another-instance', lease_until: Date.now() + 60_000 })
        .execute();
      const busy = await importFile(h(), key, 'url\nhttps://example.com/busy\n');
      assert.equal(busy.status, 429, busy.text);
      assert.equal(busy.headers.get('retry-after'), '10');
      assert.deepEqual(busy.body, {
        message: 'An import of this account is running; try again once it has finished.',
        status: 429,
      });
      // The instance that held it died: its lease runs out and the account is free again.
      await db
        .updateTable('import_leases')
        .set({ lease_until: Date.now() - 1 })
        .where('account_id', '=', id)
        .execute();
      const report = await imported(h(), key, 'url\nhttps://example.com/after\n');
      assert.equal(report.counts.created, 1);
      assert.deepEqual(
        await db.selectFrom('import_leases').selectAll().where('account_id', '=', id).execute(),
        [],
        'given back when done',
      );
    });

    test('a malformed multipart body is a 400 in the error format, never a 500, and holds no slot', async () => {
      const { key } = await h().account();
      const noBoundary = await h().request('POST', '/api/v1/links/import', {
        key,
        headers: { 'content-type': 'multipart/form-data' },
        body: 'url\nhttps://example.com\n',
      });
      assert.deepEqual(
        [noBoundary.status, noBoundary.body],
        [400, { message: 'The request body is not well-formed multipart/form-data.', status: 400 }],
      );
      const unterminated = await h().request('POST', '/api/v1/links/import', {
        key,
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        body: '--XyZ\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\n\r\nurl\nhttps://example.com/\n',
      });
      assert.deepEqual(
        [unterminated.status, unterminated.body],
        [400, { message: 'The request body is not well-formed multipart/form-data.', status: 400 }],
      );
      const endless = await h().request('POST', '/api/v1/links/import', {
        key,
        headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
        body: '--XyZ\r\ncontent-disposition: form-data; name="on_conflict"\r\n\r\nskip',
      });
      assert.equal(endless.status, 400, endless.text);
      assert.equal(
        (await importFile(h(), key, 'url\nhttps://example.com/ok\n', { dry_run: '1' })).status,
        200,
        'the slot was given back',
      );
    });
  },
  { overrides: { tuning: { IMPORT_MAX_BYTES: LIMIT, IMPORT_CONCURRENCY: 1 } } },
);
