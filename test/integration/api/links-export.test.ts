import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { csvText } from '../../../src/adapters/shared/csv/csv.ts';
import { LINK_EXPORT_COLUMNS } from '../../../src/adapters/shared/csv/link-export.ts';
import { toInsert } from '../../../src/adapters/storage/stores/link-rows.ts';
import { emptyTargets } from '../../../src/core/targeting/targeting-rules.ts';
import { assertInvalid, makeDomain, makeLink, makePixel, makeSpace } from './links-support.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A CSV export parsed as an importer would: header-mapped, the formula guard taken off. */
function parseCsv(text: string): Record<string, string>[] {
  const rows = parse<Record<string, string>>(text, { columns: true, relax_column_count: false });
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, csvText(v)])));
}

/** The record a CSV row stands for, as the API shows it (space, domain and pixels by id and name only). */
function fromCsv(row: Record<string, string>): Json {
  const text = (v: string) => (v === '' ? null : v);
  const num = (v: string) => (v === '' ? null : Number(v));
  const list = (v: string) => (v === '' ? null : JSON.parse(v));
  return {
    id: Number(row.id),
    alias: row.alias,
    url: row.url,
    short_url: row.short_url,
    title: text(row.title!),
    target_type: Number(row.target_type),
    country_target: list(row.country_target!),
    platform_target: list(row.platform_target!),
    language_target: list(row.language_target!),
    rotation_target: list(row.rotation_target!),
    last_rotation: Number(row.last_rotation),
    disabled: Number(row.disabled),
    privacy: Number(row.privacy),
    privacy_password: row.privacy_password === 'true',
    password: row.password === 'true',
    expiration_url: text(row.expiration_url!),
    expiration_clicks: num(row.expiration_clicks!),
    clicks: Number(row.clicks),
    space: row.space_id === '' ? null : { id: Number(row.space_id), name: row.space },
    domain: row.domain_id === '' ? null : { id: Number(row.domain_id), name: row.domain },
    pixels: (JSON.parse(row.pixel_ids!) as number[]).map((id, i) => ({ id, name: JSON.parse(row.pixels!)[i] })),
    tags: JSON.parse(row.tags!) as string[],
    rules: list(row.rules!),
    ios_url: text(row.ios_url!),
    android_url: text(row.android_url!),
    track_conversions: Number(row.track_conversions),
    social_card: list(row.social_card!),
    ends_at: text(row.ends_at!),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A record as the export holds it: `health` and `page_card` are derived state, never exported (docs/api.md §3). */
const exported = ({ health: _health, page_card: _pageCard, ...r }: Json): Json => r;

const slim = (r: Json): Json => ({
  ...exported(r),
  space: r.space && { id: r.space.id, name: r.space.name },
  domain: r.domain && { id: r.domain.id, name: r.domain.name },
  pixels: r.pixels.map((p: Json) => ({ id: p.id, name: p.name })),
});

async function exportOf(h: Harness, key: string, query: string) {
  const res = await h.request('GET', `/api/v1/links/export?${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res;
}

onEachEngine('links API: export', (h) => {
  /** A link with every field set, and some that test the CSV's quoting and formula guard. */
  async function variedLinks(key: string) {
    const space = await makeSpace(h(), key, '=Space, "quoted"');
    const domain = await makeDomain(h(), key);
    const pixel = await makePixel(h(), key, '-px');
    const full = await makeLink(h(), key, {
      alias: '-dash_start',
      title: '=HYPERLINK("http://x","y"), with\nlines',
      space: space.id,
      domain: domain.id,
      pixels: [pixel.id],
      password: 'secret',
      privacy: 2,
      privacy_password: 'stats',
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
    const plain = await makeLink(h(), key, { title: "'=already quoted" });
    const disabled = await makeLink(h(), key, { disabled: 1, title: '@mention' });
    return { space, full, plain, disabled };
  }

  const records = async (key: string, ids: number[]) =>
    Promise.all(ids.map(async (id) => (await h().request('GET', `/api/v1/links/${id}`, { key })).body.data));

  test('CSV: the documented columns, every field of each link, reading back unchanged', async () => {
    const { key } = await h().account();
    const { full, plain, disabled } = await variedLinks(key);
    const res = await exportOf(h(), key, 'format=csv');
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="links.csv"');
    assert.equal(res.text.split('\r\n')[0], LINK_EXPORT_COLUMNS.join(','));
    assert.match(res.text, /"'=HYPERLINK\(""http:\/\/x"",""y""\), with\nlines"/, 'formula guarded, quotes doubled');
    const rows = parseCsv(res.text);
    const expected = await records(key, [full.id, plain.id, disabled.id]);
    assert.deepEqual(rows.map(fromCsv), expected.map(slim));
    assert.equal(rows[1]!.title, "'=already quoted");
  });

  test('JSON: one document of link records, as the API reads them', async () => {
    const { key } = await h().account();
    const { full, plain, disabled } = await variedLinks(key);
    const res = await exportOf(h(), key, 'format=json');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.body.format, 'linkpix.links');
    assert.equal(res.body.version, 2);
    assert.deepEqual(res.body.links, (await records(key, [full.id, plain.id, disabled.id])).map(exported));
    const empty = await exportOf(h(), (await h().account()).key, 'format=json');
    assert.deepEqual(empty.body, { format: 'linkpix.links', version: 2, links: [] });
    const emptyCsv = await exportOf(h(), (await h().account()).key, '');
    assert.equal(emptyCsv.text, LINK_EXPORT_COLUMNS.join(',') + '\r\n', 'csv is the default');
  });

  test("the list's filters choose the links; another account's never appear", async () => {
    const { key } = await h().account();
    const other = await h().account();
    await makeLink(h(), other.key, { title: 'Spring elsewhere' });
    const { space, full, disabled } = await variedLinks(key);
    const ids = async (query: string) =>
      (await exportOf(h(), key, `format=json&${query}`)).body.links.map((l: Json) => l.id);
    assert.deepEqual(await ids(`space_id=${space.id}`), [full.id]);
    assert.deepEqual(await ids('status=3'), [disabled.id]);
    assert.deepEqual(await ids('search=mention'), [disabled.id]);
    assert.deepEqual(await ids(`search_by=alias&search=dash_st`), [full.id]);
    assert.deepEqual(await ids(`domain_id=${full.domain.id}`), [full.id]);
    assert.deepEqual(await ids(`pixel_id=${full.pixels[0].id}`), [full.id]);
    assert.deepEqual((await exportOf(h(), other.key, 'format=json')).body.links.length, 1);
    assert.deepEqual(await ids(`space_id=${(await makeSpace(h(), other.key)).id}`), []);
  });

  test('bad input is a 422 naming the field; a key is needed', async () => {
    const { key } = await h().account();
    assertInvalid(await h().request('GET', '/api/v1/links/export?format=xml', { key }), ['format']);
    assertInvalid(await h().request('GET', '/api/v1/links/export?status=7&space_id=x', { key }), ['status', 'space']);
    assert.equal((await h().request('GET', '/api/v1/links/export')).status, 401);
  });

  test('a few thousand links stream out, chunk by chunk, all of them in id order', async () => {
    const { id: accountId, key } = await h().account();
    const db = h().server.container.storage.db;
    const n = 2600;
    const now = Date.now();
    for (let i = 0; i < n; i += 500) {
      const rows = Array.from({ length: Math.min(500, n - i) }, (_, j) =>
        toInsert(
          accountId,
          {
            domainId: null,
            spaceId: null,
            alias: `many${i + j}`,
            url: `https://example.com/${i + j}`,
            title: `Many ${i + j}`,
            socialCard: null,
            targetType: 0,
            targets: emptyTargets(),
            rules: null,
            iosUrl: null,
            androidUrl: null,
            trackConversions: 0,
            disabled: 0,
            privacy: 0,
            privacyPasswordHash: null,
            passwordHash: null,
            expirationUrl: null,
            expirationClicks: null,
            endsAt: null,
          },
          now,
        ),
      );
      await db.insertInto('links').values(rows).execute();
    }
    const csv = await exportOf(h(), key, 'format=csv');
    assert.equal(csv.headers.get('content-length'), null, 'streamed, not sized up front');
    const rows = parseCsv(csv.text);
    assert.equal(rows.length, n);
    assert.deepEqual(
      rows.map((r) => r.alias),
      Array.from({ length: n }, (_, i) => `many${i}`),
    );
    const json = await exportOf(h(), key, 'format=json');
    assert.equal(json.body.links.length, n);
    assert.ok(json.body.links.every((l: Json, i: number) => i === 0 || l.id > json.body.links[i - 1].id));
  });
});
