import { test } from 'node:test';
import assert from 'node:assert/strict';
import qs from 'qs';
import { onEachEngine } from '../../support/harness.ts';
import { ISO_UTC, makeDomain, makeLink, makePixel, makeSpace, unique } from './links-support.ts';

const RECORD_KEYS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'social_card',
  'page_card',
  'target_type',
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'last_rotation',
  'disabled',
  'privacy',
  'privacy_password',
  'password',
  'expiration_url',
  'expiration_clicks',
  'clicks',
  'space',
  'domain',
  'pixels',
  'tags',
  'rules',
  'ios_url',
  'android_url',
  'track_conversions',
  'ends_at',
  'created_at',
  'updated_at',
  'health',
].sort();

onEachEngine('links API: create', (h) => {
  test('a bare create gets the defaults, typed as the contract says', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/page' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 201);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const l = res.body.data;
    assert.deepEqual(Object.keys(l).sort(), RECORD_KEYS);
    assert.equal(typeof l.id, 'number');
    assert.match(l.alias, /^[a-z0-9]{5,}$/);
    assert.equal(l.url, 'https://example.com/page');
    assert.equal(l.short_url, `http://short.test/${l.alias}`);
    assert.equal(l.title, null);
    assert.equal(l.target_type, 0);
    for (const list of ['country_target', 'platform_target', 'language_target', 'rotation_target'])
      assert.equal(l[list], null);
    assert.equal(l.last_rotation, 0);
    assert.equal(l.disabled, 0);
    assert.equal(l.privacy, 1, 'statistics private unless asked (DEFAULT_STATS_PRIVACY; unlike phpShort)');
    assert.equal(l.password, false);
    assert.deepEqual(l.health, { status: 'unknown', code: null, reason: null, checked_at: null, broken_since: null });
    assert.equal(l.privacy_password, false);
    assert.equal(l.expiration_url, null);
    assert.equal(l.expiration_clicks, null);
    assert.equal(l.clicks, 0);
    assert.equal(l.space, null);
    assert.equal(l.domain, null);
    assert.deepEqual(l.pixels, []);
    assert.equal(l.ends_at, null);
    assert.match(l.created_at, ISO_UTC);
    assert.match(l.updated_at, ISO_UTC);

    const read = await h().request('GET', `/api/v1/links/${l.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { data: l, status: 200 });
  });

  test('random aliases differ from one link to the next', async () => {
    const { key } = await h().account();
    const a = await makeLink(h(), key);
    const b = await makeLink(h(), key);
    assert.notEqual(a.alias.toLowerCase(), b.alias.toLowerCase());
  });

  test('a form with every field, bracket lists included, is stored and shown typed', async () => {
    const { key } = await h().account(undefined, 'Europe/Paris');
    const space = await makeSpace(h(), key);
    const domain = await makeDomain(h(), key);
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const alias = unique('All-fields_');
    const form = [
      'url=https%3A%2F%2Fexample.com%2Fdest%3Fa%3D1%26b%3D2',
      `domain=${domain.id}`,
      `alias=${alias}`,
      'title=My%20title',
      'password=s3cret-redirect',
      `space=${space.id}`,
      `pixels[]=${p1.id}`,
      `pixels[]=${p2.id}`,
      'disabled=1',
      'privacy=2',
      'privacy_password=s3cret-stats',
      'expiration_url=https%3A%2F%2Fexample.com%2Fgone',
      'expiration_date=2030-07-01',
      'expiration_time=12:00',
      'expiration_clicks=25',
      'target_type=1',
      'country[0][key]=US',
      'country[0][value]=https%3A%2F%2Fus.example.com',
      'country[1][key]=fr',
      'country[1][value]=https%3A%2F%2Ffr.example.com',
      'platform[0][key]=OS%20X',
      'platform[0][value]=https%3A%2F%2Fmac.example.com',
      'language[0][key]=de',
      'language[0][value]=https%3A%2F%2Fde.example.com',
      'rotation[0][value]=https%3A%2F%2Fr1.example.com',
      'rotation[1][value]=https%3A%2F%2Fr2.example.com',
    ].join('&');
    const res = await h().request('POST', '/api/v1/links', { key, form });
    assert.equal(res.status, 201, res.text);
    const l = res.body.data;
    assert.equal(l.url, 'https://example.com/dest?a=1&b=2');
    assert.equal(l.alias, alias);
    assert.equal(l.short_url, `https://${domain.name}/${alias}`);
    assert.equal(l.title, 'My title');
    assert.equal(l.password, true);
    assert.equal(l.privacy_password, true);
    assert.equal(l.disabled, 1);
    assert.equal(l.privacy, 2);
    assert.equal(l.expiration_url, 'https://example.com/gone');
    assert.equal(l.expiration_clicks, 25);
    // 12:00 in Paris in July is 10:00 UTC (CEST, UTC+2).
    assert.match(l.ends_at, ISO_UTC);
    assert.equal(Date.parse(l.ends_at), Date.UTC(2030, 6, 1, 10, 0));
    assert.equal(l.target_type, 1);
    assert.deepEqual(l.country_target, [
      { key: 'US', value: 'https://us.example.com' },
      { key: 'FR', value: 'https://fr.example.com' },
    ]);
    assert.deepEqual(l.platform_target, [{ key: 'OS X', value: 'https://mac.example.com' }]);
    assert.deepEqual(l.language_target, [{ key: 'de', value: 'https://de.example.com' }]);
    assert.deepEqual(l.rotation_target, [{ value: 'https://r1.example.com' }, { value: 'https://r2.example.com' }]);
    assert.deepEqual(l.space, space);
    assert.deepEqual(l.domain, domain);
    assert.deepEqual(
      l.pixels.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b),
      [p1.id, p2.id].sort((a, b) => a - b),
    );
    assert.deepEqual(
      l.pixels.find((p: { id: number }) => p.id === p1.id),
      p1,
    );

    const read = await h().request('GET', `/api/v1/links/${l.id}`, { key });
    assert.deepEqual(read.body.data, l);
  });

  test('ends_at reads the date and time in the account time zone (winter offset too)', async () => {
    const paris = await h().account(undefined, 'Europe/Paris');
    const winter = await makeLink(h(), paris.key, { expiration_date: '2030-01-15', expiration_time: '09:30' });
    assert.equal(winter.ends_at, new Date(Date.UTC(2030, 0, 15, 8, 30)).toISOString());
    // 02:30 does not exist on the night clocks go forward: it is read as 03:30 CEST.
    const gap = await makeLink(h(), paris.key, { expiration_date: '2030-03-31', expiration_time: '02:30' });
    assert.equal(gap.ends_at, '2030-03-31T01:30:00.000Z');
    const utc = await h().account();
    const same = await makeLink(h(), utc.key, { expiration_date: '2030-01-15', expiration_time: '09:30' });
    assert.equal(same.ends_at, new Date(Date.UTC(2030, 0, 15, 9, 30)).toISOString());
  });

  test('pixels[0]=, pixels[]= and a JSON array attach the same pixels', async () => {
    const { key } = await h().account();
    const p = await makePixel(h(), key);
    const indexed = await makeLink(h(), key, `url=https%3A%2F%2Fexample.com&pixels[0]=${p.id}`);
    const pushed = await makeLink(h(), key, `url=https%3A%2F%2Fexample.com&pixels[]=${p.id}`);
    const json = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com', pixels: [p.id] },
    });
    assert.equal(json.status, 201, json.text);
    for (const l of [indexed, pushed, json.body.data]) assert.deepEqual(l.pixels, [p]);
  });

  test('a JSON body with every field gives the same record as the form', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const domain = await makeDomain(h(), key);
    const pixel = await makePixel(h(), key);
    const fields = {
      url: 'https://example.com/json',
      title: 'Json',
      password: 'pw-one',
      space: space.id,
      pixels: [pixel.id],
      disabled: 0,
      privacy: 1,
      expiration_url: 'https://example.com/x',
      expiration_date: '2031-02-03',
      expiration_time: '04:05',
      expiration_clicks: 3,
      target_type: 4,
      rotation: [{ value: 'https://a.example.com' }, { value: 'https://b.example.com' }],
      country: [{ key: 'DE', value: 'https://de.example.com' }],
      platform: [{ key: 'Android', value: 'https://android.example.com' }],
      language: [{ key: 'EN', value: 'https://en.example.com' }],
    };
    const viaJson = await h().request('POST', '/api/v1/links', {
      key,
      json: { ...fields, domain: domain.id, alias: unique('j') },
    });
    assert.equal(viaJson.status, 201, viaJson.text);
    const viaForm = await h().request('POST', '/api/v1/links', {
      key,
      form: { ...fields, domain: domain.id, alias: unique('f') },
    });
    assert.equal(viaForm.status, 201, viaForm.text);
    const strip = (l: Record<string, unknown>) => {
      const { id: _i, alias: _a, short_url: _s, created_at: _c, updated_at: _u, ...rest } = l;
      return rest;
    };
    assert.deepEqual(strip(viaJson.body.data), strip(viaForm.body.data));
    const l = viaJson.body.data;
    assert.equal(l.privacy, 1);
    assert.equal(l.password, true);
    assert.equal(l.privacy_password, false);
    assert.equal(l.expiration_clicks, 3);
    assert.equal(l.ends_at, '2031-02-03T04:05:00.000Z');
    assert.deepEqual(l.language_target, [{ key: 'en', value: 'https://en.example.com' }]);
    assert.equal(l.short_url, `https://${domain.name}/${l.alias}`);
  });

  test('JSON numbers may arrive as strings, as form values do', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com', disabled: '1', privacy: '1', expiration_clicks: '7', target_type: '0' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.disabled, 1);
    assert.equal(res.body.data.privacy, 1);
    assert.equal(res.body.data.expiration_clicks, 7);
  });

  test('expiration_clicks 0 and empty fields on create mean "none"', async () => {
    const { key } = await h().account();
    const l = await makeLink(h(), key, {
      expiration_clicks: 0,
      password: '',
      space: '',
      expiration_date: '',
      expiration_time: '',
      alias: '',
      expiration_url: '',
    });
    assert.equal(l.expiration_clicks, null);
    assert.equal(l.password, false);
    assert.equal(l.space, null);
    assert.equal(l.ends_at, null);
    assert.equal(l.expiration_url, null);
    assert.match(l.alias, /^[a-z0-9]+$/);
  });

  test('an expiration in the past is accepted (the link is simply expired)', async () => {
    const { key } = await h().account();
    const l = await makeLink(h(), key, { expiration_date: '2001-01-01', expiration_time: '00:00' });
    assert.equal(l.ends_at, '2001-01-01T00:00:00.000Z');
  });

  test('secrets are never returned, in create, read, update or list', async () => {
    const { key } = await h().account();
    const form = {
      url: 'https://example.com',
      password: 'Redirect-Secret-1',
      privacy: 2,
      privacy_password: 'Stats-Secret-2',
    };
    const made = await h().request('POST', '/api/v1/links', { key, form });
    const id = made.body.data.id;
    const texts = [
      made.text,
      (await h().request('GET', `/api/v1/links/${id}`, { key })).text,
      (await h().request('PUT', `/api/v1/links/${id}`, { key, form: { password: 'Redirect-Secret-3' } })).text,
      (await h().request('GET', '/api/v1/links', { key })).text,
    ];
    for (const text of texts) {
      assert.doesNotMatch(text, /Secret-\d/);
      assert.doesNotMatch(text, /hash|\$argon|\$2[aby]\$|scrypt/i);
    }
    const read = JSON.parse(texts[1]!).data;
    assert.equal(read.password, true);
    assert.equal(read.privacy_password, true);
  });

  test('a statistics password is kept only with privacy 2', async () => {
    const { key } = await h().account();
    for (const [privacy, kept] of [
      [0, false],
      [1, false],
      [2, true],
    ] as const) {
      const l = await makeLink(h(), key, { privacy, privacy_password: 'stats-pw' });
      assert.equal(l.privacy_password, kept, `privacy ${privacy}`);
      const touched = await h().request('PUT', `/api/v1/links/${l.id}`, { key, form: { title: 'touched' } });
      assert.equal(touched.body.data.privacy_password, kept, `privacy ${privacy} after update`);
    }
  });

  test('fields the client may not set are ignored, not stored', async () => {
    const { key, id: accountId } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      form: {
        url: 'https://example.com',
        id: 424242,
        clicks: 1000,
        last_rotation: 5,
        account_id: accountId + 1,
        created_at: '2000-01-01T00:00:00Z',
        short_url: 'https://evil.example.com/x',
        password_hash: 'x',
        unknown: 'y',
      },
    });
    assert.equal(res.status, 201, res.text);
    const l = res.body.data;
    assert.notEqual(l.id, 424242);
    assert.equal(l.clicks, 0);
    assert.equal(l.last_rotation, 0);
    assert.equal(l.password, false);
    assert.equal(l.short_url, `http://short.test/${l.alias}`);
    assert.notEqual(l.created_at.slice(0, 4), '2000');
    assert.equal((await h().request('GET', `/api/v1/links/${l.id}`, { key })).status, 200);
    const upd = await h().request('PUT', `/api/v1/links/${l.id}`, { key, json: { clicks: 99, id: 1, created_at: 0 } });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.data.id, l.id);
    assert.equal(upd.body.data.clicks, 0);
    assert.equal(upd.body.data.created_at, l.created_at);
  });

  test('a form whose content type carries a charset parameter is read', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      body: qs.stringify({ url: 'https://example.com' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.url, 'https://example.com');
  });
});
