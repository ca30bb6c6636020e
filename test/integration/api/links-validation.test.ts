import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import {
  assertInvalid,
  createRefused,
  linkTotal,
  makeDomain,
  makeLink,
  makePixel,
  makeSpace,
  unique,
  updateRefused,
} from './links-support.ts';

const URL_OK = 'https://example.com/';

onEachEngine('links API: bad input is a 422 naming the field and writes nothing', (h) => {
  test('url: missing, empty, not http(s), too long', async () => {
    const { key } = await h().account();
    await makeLink(h(), key); // a non-empty list, so "nothing written" is not trivially true
    const missing = await createRefused(h(), key, { form: { alias: unique('nourl') } }, ['url']);
    assert.deepEqual(missing.body.message.url, ['The url field is required.']);
    await createRefused(h(), key, { form: { url: '' } }, ['url']);
    await createRefused(h(), key, { json: {} }, ['url']);
    await createRefused(h(), key, { form: { url: 'javascript:alert(1)' } }, ['url']);
    await createRefused(h(), key, { form: { url: 'data:text/html,<b>x</b>' } }, ['url']);
    await createRefused(h(), key, { form: { url: 'file:///etc/passwd' } }, ['url']);
    const ftp = await createRefused(h(), key, { form: { url: 'ftp://files.example.com/a' } }, ['url']);
    assert.deepEqual(ftp.body.message.url, ['The url field must be a URL whose scheme is http or https.']);
    await createRefused(h(), key, { form: { url: 'not a url' } }, ['url']);
    await createRefused(h(), key, { form: { url: `https://example.com/${'a'.repeat(3000)}` } }, ['url']);
    await createRefused(h(), key, { form: { url: ['https://a.example.com', 'https://b.example.com'] } }, ['url']);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_url: 'javascript:alert(1)' } }, ['expiration_url']);
  });

  test('alias: bad characters, too long, reserved, taken in another letter case', async () => {
    const a = await h().account();
    const b = await h().account();
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: 'a/b' } }, ['alias']);
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: 'has space' } }, ['alias']);
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: 'dots.not.ok' } }, ['alias']);
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: 'x'.repeat(256) } }, ['alias']);
    for (const reserved of ['api', 'Dashboard', 'LINKS', 'pixels', 'stats', 'login', 'admin', 'health']) {
      await createRefused(h(), a.key, { form: { url: URL_OK, alias: reserved } }, ['alias']);
    }
    const alias = unique('Taken');
    await makeLink(h(), a.key, { alias });
    const again = await createRefused(h(), a.key, { form: { url: URL_OK, alias: alias.toLowerCase() } }, ['alias']);
    assert.match(again.body.message.alias[0], /taken/);
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: alias.toUpperCase() } }, ['alias']);
    // The default domain is shared: another account cannot take the alias either.
    await createRefused(h(), b.key, { form: { url: URL_OK, alias } }, ['alias']);
    // Unique per domain: the same alias on a custom domain is free.
    const domain = await makeDomain(h(), a.key);
    const onDomain = await makeLink(h(), a.key, { alias, domain: domain.id });
    assert.equal(onDomain.short_url, `https://${domain.name}/${alias}`);
    await createRefused(h(), a.key, { form: { url: URL_OK, alias: alias.toLowerCase(), domain: domain.id } }, [
      'alias',
    ]);
  });

  test('concurrent creates racing for one alias: exactly one wins, the others hear 422 alias', async () => {
    const { key } = await h().account();
    const alias = unique('race');
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => h().request('POST', '/api/v1/links', { key, form: { url: URL_OK, alias } })),
    );
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [201, 422, 422, 422, 422, 422],
      replies.map((r) => r.text).join('\n'),
    );
    for (const r of replies.filter((x) => x.status === 422)) assertInvalid(r, ['alias']);
    assert.equal((await h().request('GET', `/api/v1/links?search=${alias}&by=alias`, { key })).body.meta.total, 1);
  });

  test('enumerations: disabled, privacy, target_type', async () => {
    const { key } = await h().account();
    await createRefused(h(), key, { form: { url: URL_OK, privacy: 7 } }, ['privacy']);
    await createRefused(h(), key, { form: { url: URL_OK, privacy: 'public' } }, ['privacy']);
    await createRefused(h(), key, { form: { url: URL_OK, target_type: 5 } }, ['target_type']);
    await createRefused(h(), key, { form: { url: URL_OK, disabled: 2 } }, ['disabled']);
    await createRefused(h(), key, { json: { url: URL_OK, disabled: 'yes' } }, ['disabled']);
    // Privacy 2 protects the statistics page with a password: one must be given.
    const noPassword = await createRefused(h(), key, { form: { url: URL_OK, privacy: 2 } }, ['privacy_password']);
    assert.deepEqual(noPassword.body.message.privacy_password, [
      'The privacy password field is required when the statistics page is private with a password (privacy 2).',
    ]);
  });

  test('targeting keys and values', async () => {
    const { key } = await h().account();
    const entry = (list: string, k: string, v = 'https://t.example.com') => ({
      url: URL_OK,
      [list]: [{ key: k, value: v }],
    });
    await createRefused(h(), key, { form: entry('country', 'XX') }, ['country']);
    await createRefused(h(), key, { form: entry('country', 'usa') }, ['country']);
    await createRefused(h(), key, { form: entry('country', 'US', 'javascript:alert(1)') }, ['country']);
    await createRefused(h(), key, { form: 'url=https%3A%2F%2Fexample.com&country[0][key]=US' }, ['country']);
    await createRefused(h(), key, { form: entry('platform', 'BeOS') }, ['platform']);
    await createRefused(h(), key, { form: entry('platform', 'ios') }, ['platform']);
    await createRefused(h(), key, { form: entry('language', 'english') }, ['language']);
    await createRefused(h(), key, { form: { url: URL_OK, rotation: [{ value: 'ftp://x.example.com' }] } }, [
      'rotation',
    ]);
    const bad = await createRefused(h(), key, { form: entry('country', 'XX') }, ['country.0.key']);
    assert.deepEqual(Object.keys(bad.body.message), ['country.0.key']);
  });

  test('malformed bracket lists', async () => {
    const { key } = await h().account();
    const base = 'url=https%3A%2F%2Fexample.com&';
    await createRefused(
      h(),
      key,
      { form: `${base}country[x][key]=US&country[x][value]=https%3A%2F%2Fus.example.com` },
      ['country'],
    );
    await createRefused(h(), key, { form: `${base}country[0]=US` }, ['country']);
    await createRefused(h(), key, { form: `${base}country=US` }, ['country']);
    await createRefused(h(), key, { form: `${base}rotation=https%3A%2F%2Fr.example.com` }, ['rotation']);
    await createRefused(h(), key, { form: `${base}pixels[]=abc` }, ['pixels']);
    await createRefused(h(), key, { form: `${base}pixels[a]=1` }, ['pixels']);
    await createRefused(h(), key, { json: { url: URL_OK, country: { key: 'US', value: URL_OK } } }, ['country']);
    await createRefused(h(), key, { json: { url: URL_OK, pixels: 'all' } }, ['pixels']);
  });

  test('expiration: bad date, bad time, one without the other, bad click counts', async () => {
    const { key } = await h().account();
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '2026-13-40', expiration_time: '10:00' } }, [
      'expiration_date',
    ]);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '2026-02-30', expiration_time: '10:00' } }, [
      'expiration_date',
    ]);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '01/02/2030', expiration_time: '10:00' } }, [
      'expiration_date',
    ]);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '2030-01-01', expiration_time: '25:00' } }, [
      'expiration_time',
    ]);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '2030-01-01', expiration_time: '9am' } }, [
      'expiration_time',
    ]);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_date: '2030-01-01' } }, ['expiration_time']);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_time: '10:00' } }, ['expiration_date']);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_clicks: -1 } }, ['expiration_clicks']);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_clicks: 'abc' } }, ['expiration_clicks']);
    await createRefused(h(), key, { form: { url: URL_OK, expiration_clicks: '1.5' } }, ['expiration_clicks']);
  });

  test("another account's space, domain or pixel: one foreign id fails the whole request", async () => {
    const mine = await h().account();
    const theirs = await h().account();
    const [space, domain, pixel] = [
      await makeSpace(h(), theirs.key),
      await makeDomain(h(), theirs.key),
      await makePixel(h(), theirs.key),
    ];
    const [p1, p2] = [await makePixel(h(), mine.key), await makePixel(h(), mine.key)];
    await createRefused(h(), mine.key, { form: { url: URL_OK, space: space.id } }, ['space']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, domain: domain.id } }, ['domain']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, pixels: [pixel.id] } }, ['pixels']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, pixels: [p1.id, pixel.id, p2.id] } }, ['pixels']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, pixels: [p1.id, 999999] } }, ['pixels']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, space_id: space.id } }, ['space']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, domain_id: domain.id } }, ['domain']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, pixel_ids: [p1.id, pixel.id] } }, ['pixels']);
    await createRefused(h(), mine.key, { form: { url: URL_OK, space: 0 } }, ['space']);

    const link = await makeLink(h(), mine.key, { pixels: [p1.id] });
    await updateRefused(h(), mine.key, link.id, { form: { space: space.id } }, ['space']);
    await updateRefused(h(), mine.key, link.id, { form: { pixels: [p2.id, pixel.id] } }, ['pixels']);
  });

  test('several bad fields at once are all listed, and nothing is written', async () => {
    const mine = await h().account();
    const theirs = await h().account();
    const foreign = await makeSpace(h(), theirs.key);
    const res = await createRefused(
      h(),
      mine.key,
      {
        form: {
          url: 'javascript:alert(1)',
          alias: 'api',
          privacy: 7,
          target_type: 5,
          expiration_clicks: -1,
          space: foreign.id,
          expiration_date: '2026-13-40',
          expiration_time: '25:00',
          country: [{ key: 'XX', value: URL_OK }],
          platform: [{ key: 'BeOS', value: URL_OK }],
        },
      },
      [
        'url',
        'alias',
        'privacy',
        'target_type',
        'expiration_clicks',
        'space',
        'expiration_date',
        'expiration_time',
        'country',
        'platform',
      ],
    );
    assert.equal(Object.keys(res.body.message).length, 10, res.text);

    const link = await makeLink(h(), mine.key);
    await updateRefused(h(), mine.key, link.id, { form: { url: 'file:///x', privacy: 9, alias: 'a/b' } }, [
      'url',
      'privacy',
      'alias',
    ]);
  });

  test('update refuses the same bad values and leaves the link untouched', async () => {
    const { key } = await h().account();
    const other = await makeLink(h(), key, { alias: unique('Other') });
    const link = await makeLink(h(), key, { alias: unique('mine'), password: 'pw' });
    await updateRefused(h(), key, link.id, { form: { url: '' } }, ['url']);
    await updateRefused(h(), key, link.id, { form: { url: 'javascript:alert(1)' } }, ['url']);
    await updateRefused(h(), key, link.id, { form: { alias: other.alias.toUpperCase() } }, ['alias']);
    await updateRefused(h(), key, link.id, { form: { alias: 'Dashboard' } }, ['alias']);
    await updateRefused(h(), key, link.id, { form: { target_type: 5 } }, ['target_type']);
    await updateRefused(h(), key, link.id, { form: { expiration_date: '2030-01-01' } }, ['expiration_time']);
    await updateRefused(h(), key, link.id, { form: { expiration_clicks: 'abc' } }, ['expiration_clicks']);
    await updateRefused(h(), key, link.id, { form: 'country[0]=US' }, ['country']);
    await updateRefused(h(), key, link.id, { form: { privacy: 2 } }, ['privacy_password']);
  });

  test('list parameters: per_page, page, status, sort, by', async () => {
    const { key } = await h().account();
    const bad = async (query: string, field: string) => {
      const res = await h().request('GET', `/api/v1/links?${query}`, { key });
      assertInvalid(res, [field]);
    };
    await bad('per_page=5', 'per_page');
    await bad('per_page=9', 'per_page');
    await bad('per_page=101', 'per_page');
    await bad('per_page=x', 'per_page');
    await bad('per_page=10.5', 'per_page');
    await bad('page=0', 'page');
    await bad('page=x', 'page');
    await bad('status=9', 'status');
    await bad('status=active', 'status');
    await bad('sort=sideways', 'sort');
    await bad('by=everything', 'by');
    await bad('search_by=everything', 'by');
    await bad('space=x', 'space');
    await bad('pixel_id=x', 'pixel');
    const many = await h().request('GET', '/api/v1/links?per_page=5&status=9&sort=sideways', { key });
    assertInvalid(many, ['per_page', 'status', 'sort']);
    for (const ok of ['per_page=10', 'per_page=100', 'status=0', 'sort=min', 'by=url', 'per_page=']) {
      assert.equal((await h().request('GET', `/api/v1/links?${ok}`, { key })).status, 200, ok);
    }
  });

  test('a body that is not an object is refused without writing', async () => {
    const { key } = await h().account();
    const before = await linkTotal(h(), key);
    for (const json of [[{ url: URL_OK }], 'https://example.com', 42]) {
      const res = await h().request('POST', '/api/v1/links', { key, json });
      assert.equal(res.status, 422, res.text);
    }
    assert.equal(await linkTotal(h(), key), before);
  });
});
