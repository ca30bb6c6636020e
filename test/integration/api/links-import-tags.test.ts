// POST /api/v1/links/import on both engines: tags kept from every format that has them, and the
// report's ignored_columns naming the columns the format read nothing from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { importFile } from './import-support.ts';
import { listLinks, unique } from './links-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('links API: import keeps tags', (h) => {
  async function tagsByAlias(key: string): Promise<Record<string, string[]>> {
    const list = await listLinks(h(), key, 'per_page=100');
    return Object.fromEntries(list.data.map((l: Json) => [l.alias, [...l.tags].sort()]));
  }

  const cases: { format: string; file: (a: string, b: string) => string; ignored: string[] }[] = [
    {
      format: 'bitly-csv',
      file: (a, b) =>
        `Title,Short link,Long URL,Created,Tags,Clicks\r\nOne,bit.ly/${a},https://example.com/1,2024-01-01,"news, Spring sale",3\r\nTwo,bit.ly/${b},https://example.com/2,2024-01-02,,0\r\n`,
      ignored: ['Created', 'Clicks'],
    },
    {
      format: 'shlink-csv',
      file: (a, b) =>
        `createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\r\n2024-01-01,,${a},https://s.test/${a},https://example.com/1,One,news|Spring sale,3\r\n2024-01-02,DEFAULT,${b},https://s.test/${b},https://example.com/2,,,0\r\n`,
      ignored: ['createdAt', 'shortUrl', 'visits'],
    },
    {
      format: 'csv',
      file: (a, b) =>
        `url,alias,tags,notes\r\nhttps://example.com/1,${a},"news; Spring sale",hello\r\nhttps://example.com/2,${b},,\r\n`,
      ignored: ['notes'],
    },
  ];

  for (const { format, file, ignored } of cases) {
    test(`${format}: tags kept, a dry run says what it would do, ignored_columns names the unread columns`, async () => {
      const { key } = await h().account();
      const [a, b] = [unique('tg'), unique('tg')];
      const dry = await importFile(h(), key, file(a, b), { dry_run: '1' });
      assert.equal(dry.status, 200, dry.text);
      assert.equal(dry.body.data.format, format);
      assert.deepEqual(dry.body.data.ignored_columns, ignored);
      assert.equal(dry.body.data.columns.tags !== null, true, 'the tags column is recognised');
      assert.deepEqual(await tagsByAlias(key), {}, 'a dry run writes nothing');

      const res = await importFile(h(), key, file(a, b));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 0 });
      assert.deepEqual(res.body.data.ignored_columns, ignored);
      assert.deepEqual(await tagsByAlias(key), { [a]: ['Spring sale', 'news'], [b]: [] });
    });
  }

  test('a linkpix export reads back with its tags; its ids and counts are the ignored columns; JSON formats have none', async () => {
    const { key } = await h().account();
    const a = unique('tg');
    await importFile(h(), key, `url,alias,tags\r\nhttps://example.com/1,${a},x|y\r\n`);
    const csv = (await h().request('GET', '/api/v1/links/export?format=csv', { key })).text;
    const json = (await h().request('GET', '/api/v1/links/export?format=json', { key })).text;
    const other = await h().account();
    const fromCsv = await importFile(h(), other.key, csv, { dry_run: '1' });
    assert.equal(fromCsv.body.data.format, 'linkpix-csv');
    assert.deepEqual(fromCsv.body.data.ignored_columns, [
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
    // Aliases are unique across the service: the other workspace's copy takes the next free one.
    const fromJson = await importFile(h(), other.key, json, { on_conflict: 'rename' });
    assert.equal(fromJson.body.data.format, 'linkpix-json');
    assert.equal(fromJson.body.data.ignored_columns, undefined);
    assert.deepEqual(await tagsByAlias(other.key), { [`${a}-2`]: ['x', 'y'] });
  });
});
