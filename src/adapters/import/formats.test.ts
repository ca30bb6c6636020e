// Each format's mapper over a fixture written by hand from the source's documented columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { ImportRow } from '../../core/links/import/import-row.ts';
import { chooseFormat, columnsFound, fileHead } from './formats.ts';
import { LINK_EXPORT_COLUMNS } from '../shared/csv/link-export.ts';

const FIXTURES = new URL('../../../test/fixtures/import/', import.meta.url);

async function read(name: string): Promise<{ format: string; rows: ImportRow[] }> {
  const bytes = readFileSync(new URL(name, FIXTURES));
  const format = chooseFormat(fileHead(bytes));
  assert.ok(format, `${name}: detected`);
  const rows: ImportRow[] = [];
  for await (const row of format.rows(
    { stream: () => Readable.from([bytes]), text: async () => bytes.toString('utf8') },
    fileHead(bytes),
  ))
    rows.push(row);
  return { format: format.name, rows: rows.sort((a, b) => a.line - b.line) };
}

const aliases = (rows: ImportRow[]) => rows.map((r) => r.unreadable ?? r.input.alias);

test('generic CSV: header-mapped; a row with too many cells is unreadable, not fatal', async () => {
  const { format, rows } = await read('generic.csv');
  assert.equal(format, 'csv');
  assert.deepEqual(rows[0], { line: 2, input: rows[0]!.input, spaceName: 'Campaign', domainName: null });
  assert.equal(rows[0].input.url, 'https://example.com/one');
  assert.equal(rows[0].input.expiration_clicks, 10);
  assert.equal(rows[1]!.input.alias, undefined, 'empty alias: a random one');
  assert.equal(rows[2]!.input.title, 'Third, with comma');
  assert.match(rows[3]!.unreadable!, /Malformed CSV row/);
  assert.equal(rows[4]!.input.url, 'not a url', 'the create rules judge it, not the mapper');
});

test('Bitly: the back-half of the bitlink is the alias', async () => {
  const { format, rows } = await read('bitly.csv');
  assert.equal(format, 'bitly-csv');
  assert.deepEqual(
    rows.map((r) => r.input),
    [
      { alias: 'launch24', url: 'https://example.com/launch', title: 'Launch' },
      { alias: 'docs-v2', url: 'https://example.com/docs', title: 'Docs', tags: ['docs'] },
    ],
  );
});

test('YOURLS: yourls_url as CSV and as a SQL dump', async () => {
  const csv = await read('yourls.csv');
  assert.equal(csv.format, 'yourls-csv');
  assert.deepEqual(csv.rows[1]!.input, { alias: 'yr2', url: 'https://example.org/b', title: null });
  const sql = await read('yourls.sql');
  assert.equal(sql.format, 'yourls-sql');
  assert.deepEqual(aliases(sql.rows), ['yr1', 'yr2', 'yr3']);
  assert.deepEqual(sql.rows[1]!.input, {
    alias: 'yr2',
    url: 'https://example.org/b?x=1&y=2',
    title: 'It\'s a "title"; with, (parens)',
  });
});

test('Shlink: shortCode and longUrl; DEFAULT or empty domain is the default one', async () => {
  const { format, rows } = await read('shlink.csv');
  assert.equal(format, 'shlink-csv');
  assert.deepEqual(rows[0], {
    line: 2,
    input: { alias: 'shl1', url: 'https://example.net/1', title: 'One', tags: ['a', 'b'] },
    domainName: null,
  });
  assert.equal(rows[1]!.domainName, null);
  assert.equal(rows[1]!.input.tags, undefined, 'no tags: none sent');
});

test('Kutt: address, target, description, expire_in; a password or a ban imports the link disabled', async () => {
  const { format, rows } = await read('kutt.json');
  assert.equal(format, 'kutt-json');
  assert.deepEqual(rows[0]!.input, { alias: 'kt1', url: 'https://example.com/k1', title: 'Kutt one' });
  assert.equal(rows[0]!.endsAt, Date.parse('2030-06-01T12:00:00.000Z'));
  assert.equal(rows[1]!.input.disabled, 1);
  assert.equal(rows[1]!.notes?.length, 1);
  assert.equal(rows[2]!.input.disabled, 1);
});

test('phpShort: targets, expiry and privacy mapped, as CSV and as a SQL dump', async () => {
  for (const name of ['phpshort.csv', 'phpshort.sql']) {
    const { format, rows } = await read(name);
    assert.equal(format, name.endsWith('.csv') ? 'phpshort-csv' : 'phpshort-sql');
    const [one, two, three] = rows;
    assert.deepEqual(one!.input.country, [{ key: 'US', value: 'https://example.com/us' }]);
    assert.equal(one!.input.target_type, 1);
    assert.equal(one!.endsAt, Date.UTC(2031, 0, 1));
    assert.deepEqual(two!.input.rotation, [{ value: 'https://example.com/r1' }, { value: 'https://example.com/r2' }]);
    assert.equal(two!.input.expiration_url, 'https://example.com/gone');
    assert.equal(two!.input.expiration_clicks, 100);
    assert.equal(two!.input.privacy, 1, 'a statistics password cannot be carried: private instead');
    assert.equal(two!.input.disabled, 1, 'a link password cannot be carried: disabled');
    assert.ok(three!.unreadable, name);
  }
});

test('detection: the export’s own CSV and JSON; nothing for a file of no known shape', () => {
  const head = (text: string) => fileHead(Buffer.from(text));
  assert.equal(chooseFormat(head('{"format":"linkpix.links","version":1,"links":[]}'))?.name, 'linkpix-json');
  assert.equal(
    chooseFormat(
      head(
        'id,alias,url,short_url,title,target_type,country_target,platform_target,language_target,rotation_target,last_rotation,x,pixel_ids\r\n',
      ),
    )?.name,
    'linkpix-csv',
  );
  assert.equal(chooseFormat(head('hello world\n')), null);
  assert.equal(chooseFormat(head('url\nhttps://x\n'), 'kutt-json')?.name, 'kutt-json', 'a named format wins');
});

test('Bitly: the API’s `link` is the short link; a file without any short-link column is told, with the columns recognised', async () => {
  const file = Buffer.from(
    'link,long_url,title\nhttps://bit.ly/api-one,https://example.com/1,One\nbit.ly/api-two,https://example.com/2,\n',
  );
  const head = fileHead(file);
  const format = chooseFormat(head)!;
  assert.equal(format.name, 'bitly-csv', 'link beside long_url reads as Bitly');
  const rows: ImportRow[] = [];
  for await (const r of format.rows(
    { stream: () => Readable.from([file]), text: async () => file.toString('utf8') },
    head,
  ))
    rows.push(r);
  assert.deepEqual(
    rows.map((r) => r.input.alias),
    ['api-one', 'api-two'],
  );
  assert.deepEqual(columnsFound(format, head), {
    columns: { alias: 'link', url: 'long_url', title: 'title', tags: null },
    aliasMissing: null,
    ignored: [],
  });

  const bare = fileHead(Buffer.from('long_url,title\nhttps://example.com/1,One\n'));
  const found = columnsFound(chooseFormat(bare, 'bitly-csv')!, bare)!;
  assert.deepEqual(found.columns, { alias: null, url: 'long_url', title: 'title', tags: null });
  assert.equal(
    found.aliasMissing,
    'The file has no alias column (bitly-csv reads it from bitlink, Short link, link); columns recognised: long_url (url), title.',
  );
  assert.equal(chooseFormat(bare)?.name, 'csv', 'without a short link it is a generic CSV');
  assert.equal(
    columnsFound(chooseFormat(head, 'csv')!, head)!.columns.url,
    'long_url',
    'in the generic CSV, link is a destination only after the others',
  );
});

test('tags: a generic CSV reads them split at commas, semicolons or bars, or as a JSON list', async () => {
  const file = Buffer.from(
    'url,alias,Tags\nhttps://example.com/1,t1,"news, spring sale"\nhttps://example.com/2,t2,a;b|c\nhttps://example.com/3,t3,"[""x, y""]"\nhttps://example.com/4,t4,\n',
  );
  const head = fileHead(file);
  const format = chooseFormat(head)!;
  assert.equal(format.name, 'csv');
  const rows: ImportRow[] = [];
  for await (const r of format.rows({ stream: () => Readable.from([file]), text: async () => '' }, head)) rows.push(r);
  assert.deepEqual(
    rows.map((r) => r.input.tags),
    [['news', 'spring sale'], ['a', 'b', 'c'], ['x, y'], undefined],
  );
  assert.equal(columnsFound(format, head)!.columns.tags, 'Tags');
});

test("ignored columns: every header column the format reads nothing from, in the file's order", () => {
  const found = (text: string, name?: string) => {
    const head = fileHead(Buffer.from(text));
    return columnsFound(chooseFormat(head, name)!, head)!.ignored;
  };
  assert.deepEqual(found('Title,Short link,Long URL,Created,Tags,Clicks\n'), ['Created', 'Clicks']);
  assert.deepEqual(found('createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n'), [
    'createdAt',
    'shortUrl',
    'visits',
  ]);
  assert.deepEqual(found('url,slug,notes,tags\n'), ['notes']);
  assert.deepEqual(
    found('alias,url,target_type,country_target,password,domain_id,clicks,created_at\n'),
    ['clicks', 'created_at'],
    'phpShort: the password and domain id are read (a disabled link, a note)',
  );
  assert.deepEqual(found(LINK_EXPORT_COLUMNS.join(',') + '\n'), [
    'id',
    'short_url',
    'last_rotation',
    'clicks',
    'space_id',
    'domain_id',
    'pixel_ids',
    'created_at',
    'updated_at',
  ]);
});
