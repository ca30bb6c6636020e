import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { assertNotFound, makeDomain, makePixel, makeSpace, unique } from './links-support.ts';

/** Headers exactly as the seed's clients send them. */
const READ = { accept: 'application/json' };
const WRITE = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };

onEachEngine('links API: a phpShort-style client', (h) => {
  test('creates with domain_id, space_id and pixel_ids[] and reads short_url out of the body', async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const space = await makeSpace(h(), key);
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const alias = unique('promo');
    const body = new URLSearchParams([
      ['url', 'https://example.com/landing?utm_source=x'],
      ['alias', alias],
      ['domain_id', String(domain.id)],
      ['space_id', String(space.id)],
      ['pixel_ids[]', String(p1.id)],
      ['pixel_ids[]', String(p2.id)],
    ]).toString();
    const res = await h().request('POST', '/api/v1/links', { key, body, headers: WRITE });
    assert.equal(res.status, 201, res.text);
    const shortUrl: string = res.body.data.short_url;
    assert.equal(shortUrl, `https://${domain.name}/${alias}`);
    assert.doesNotThrow(() => new URL(shortUrl));
    assert.equal(res.body.data.domain.id, domain.id);
    assert.equal(res.body.data.space.id, space.id);
    assert.deepEqual(res.body.data.pixels.map((p: { id: number }) => p.id).sort(), [p1.id, p2.id].sort());
  });

  test('on the default domain short_url is APP_URL/alias, and indexed pixel_ids work too', async () => {
    const { key } = await h().account();
    const pixel = await makePixel(h(), key);
    const body = `url=${encodeURIComponent('https://example.com/')}&pixel_ids[0]=${pixel.id}`;
    const res = await h().request('POST', '/api/v1/links', { key, body, headers: WRITE });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.short_url, `http://short.test/${res.body.data.alias}`);
    assert.deepEqual(res.body.data.pixels, [pixel]);
  });

  test('the seed names win when a client sends both spellings', async () => {
    const { key } = await h().account();
    const [s1, s2] = [await makeSpace(h(), key), await makeSpace(h(), key)];
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const body = `url=https%3A%2F%2Fexample.com&space=${s1.id}&space_id=${s2.id}&pixels[]=${p1.id}&pixel_ids[]=${p2.id}`;
    const res = await h().request('POST', '/api/v1/links', { key, body, headers: WRITE });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.space.id, s1.id);
    assert.deepEqual(res.body.data.pixels, [p1]);
  });

  test('the later names work on update too, and pixel_ids[]= clears', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const pixel = await makePixel(h(), key);
    const made = await h().request('POST', '/api/v1/links', {
      key,
      body: 'url=https%3A%2F%2Fexample.com',
      headers: WRITE,
    });
    const id = made.body.data.id;
    const set = await h().request('PUT', `/api/v1/links/${id}`, {
      key,
      body: `space_id=${space.id}&pixel_ids[]=${pixel.id}`,
      headers: WRITE,
    });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.data.space.id, space.id);
    assert.deepEqual(set.body.data.pixels, [pixel]);
    const cleared = await h().request('PUT', `/api/v1/links/${id}`, {
      key,
      body: 'space_id=&pixel_ids[]=',
      headers: WRITE,
    });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.data.space, null);
    assert.deepEqual(cleared.body.data.pixels, []);
  });

  test('a whole session: create, list, read, update, delete at the seed paths', async () => {
    const { key } = await h().account();
    const created = await h().request('POST', '/api/v1/links', {
      key,
      headers: WRITE,
      body: 'url=https%3A%2F%2Fexample.com%2Fa&title=Campaign&target_type=2&platform%5B0%5D%5Bkey%5D=iOS&platform%5B0%5D%5Bvalue%5D=https%3A%2F%2Fapps.example.com',
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.data.id;
    assert.deepEqual(created.body.data.platform_target, [{ key: 'iOS', value: 'https://apps.example.com' }]);

    const listed = await h().request('GET', '/api/v1/links?search=campaign&by=title&status=1&sort=desc&per_page=10', {
      key,
      headers: READ,
    });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.data.map((l: { id: number }) => l.id),
      [id],
    );

    const read = await h().request('GET', `/api/v1/links/${id}`, { key, headers: READ });
    assert.equal(read.body.data.title, 'Campaign');

    const updated = await h().request('PUT', `/api/v1/links/${id}`, {
      key,
      headers: WRITE,
      body: 'url=https%3A%2F%2Fexample.com%2Fb&disabled=1',
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.data.url, 'https://example.com/b');
    assert.equal(updated.body.data.disabled, 1);
    assert.equal(updated.body.data.title, 'Campaign');

    const removed = await h().request('DELETE', `/links/${id}/destroy`, { key, headers: READ });
    assert.deepEqual(removed.body, { id, object: 'link', deleted: true, status: 200 });
    assertNotFound(await h().request('GET', `/api/v1/links/${id}`, { key, headers: READ }));
  });

  test('validation errors come back in the shape phpShort clients display', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', { key, headers: WRITE, body: 'alias=a%2Fb' });
    assert.equal(res.status, 422);
    assert.equal(res.body.status, 422);
    assert.deepEqual(res.body.message.url, ['The url field is required.']);
    assert.ok(Array.isArray(res.body.message.alias));
  });
});

onEachEngine(
  'links API: short_url follows APP_URL and DOMAIN_SCHEME',
  (h) => {
    test('a trailing slash on APP_URL is not doubled; custom domains use the configured scheme', async () => {
      const { key } = await h().account();
      const domain = await makeDomain(h(), key);
      const onDefault = await h().request('POST', '/api/v1/links', {
        key,
        form: { url: 'https://example.com', alias: 'Abc-1' },
      });
      assert.equal(onDefault.body.data.short_url, 'https://sho.rt/Abc-1');
      const onDomain = await h().request('POST', '/api/v1/links', {
        key,
        form: { url: 'https://example.com', alias: 'Abc-1', domain_id: domain.id },
      });
      assert.equal(onDomain.status, 201, onDomain.text);
      assert.equal(onDomain.body.data.short_url, `http://${domain.name}/Abc-1`);
      const listed = await h().request('GET', '/api/v1/links?per_page=10', { key });
      assert.equal(listed.body.meta.path, 'https://sho.rt/api/v1/links');
      assert.equal(listed.body.links.first, 'https://sho.rt/api/v1/links?per_page=10&page=1');
    });
  },
  { env: { APP_URL: 'https://sho.rt/', DOMAIN_SCHEME: 'http' } },
);
