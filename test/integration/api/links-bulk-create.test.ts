import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { assertInvalid, linkTotal, makeLink, makePixel, makeSpace, unique } from './links-support.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

onEachEngine('links API: bulk create', (h) => {
  const bulk = (key: string, json: unknown) => h().request('POST', '/api/v1/links/bulk', { key, json });

  test('every link created, in order, each answered as a single create would be', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const pixel = await makePixel(h(), key);
    const alias = unique('bulk');
    const res = await bulk(key, {
      links: [
        { url: 'https://example.com/one', alias, title: 'One' },
        {
          url: 'https://example.com/two',
          space_id: space.id,
          pixel_ids: [pixel.id],
          country: [{ key: 'US', value: 'https://us.example.com/' }],
          target_type: 1,
        },
        { url: 'https://example.com/three', expiration_clicks: '5', disabled: 1 },
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 200);
    assert.deepEqual(
      res.body.data.map((d: Json) => d.status),
      [201, 201, 201],
    );
    const [one, two, three] = res.body.data.map((d: Json) => d.data);
    assert.equal(one.alias, alias);
    assert.equal(one.short_url, `http://short.test/${alias}`);
    assert.equal(two.space.id, space.id);
    assert.deepEqual(
      two.pixels.map((p: Json) => p.id),
      [pixel.id],
    );
    assert.deepEqual(two.country_target, [{ key: 'US', value: 'https://us.example.com/' }]);
    assert.equal(three.expiration_clicks, 5, 'coerced as the single create coerces');
    assert.equal(three.disabled, 1);
    // The records are the ones a read gives.
    for (const record of [one, two, three])
      assert.deepEqual((await h().request('GET', `/api/v1/links/${record.id}`, { key })).body.data, record);
  });

  test('valid links are created while invalid ones are refused, each with every bad field named', async () => {
    const { key } = await h().account();
    const other = await h().account();
    const foreignSpace = await makeSpace(h(), other.key);
    const taken = (await makeLink(h(), key)).alias;
    const alias = unique('dup');
    const res = await bulk(key, {
      links: [
        { url: 'https://example.com/ok1' },
        { url: 'javascript:alert(1)', alias: 'bad alias!', expiration_clicks: 'many' },
        { url: 'https://example.com/ok2', alias },
        { url: 'https://example.com/again', alias },
        { url: 'https://example.com/taken', alias: taken },
        { url: 'https://example.com/foreign', space: foreignSpace.id },
        { title: 'no url' },
        'not an object',
        { url: 'https://example.com/ok3', privacy: 2 },
      ],
    });
    assert.equal(res.status, 200, res.text);
    const statuses = res.body.data.map((d: Json) => d.status);
    assert.deepEqual(statuses, [201, 422, 201, 422, 422, 422, 422, 422, 422]);
    const message = (i: number) => Object.keys(res.body.data[i].message).sort();
    assert.deepEqual(message(1), ['alias', 'expiration_clicks', 'url']);
    assert.deepEqual(message(3), ['alias']);
    assert.deepEqual(message(4), ['alias']);
    assert.deepEqual(message(5), ['space']);
    assert.deepEqual(message(6), ['url']);
    assert.deepEqual(message(7), ['body']);
    assert.deepEqual(message(8), ['privacy_password']);
    assert.equal(await linkTotal(h(), key), 3, 'the taken alias link and the two created');
    assert.equal(await linkTotal(h(), other.key), 0);
  });

  test('1 001 links: a 422 naming links, and nothing created', async () => {
    const { key } = await h().account();
    const links = Array.from({ length: 1001 }, (_, i) => ({ url: `https://example.com/${i}` }));
    assertInvalid(await bulk(key, { links }), ['links']);
    assert.equal(await linkTotal(h(), key), 0);
  });

  test('1 000 links are taken, beyond the single request body limit', async () => {
    const { key } = await h().account();
    const links = Array.from({ length: 1000 }, (_, i) => ({
      url: `https://example.com/a-fairly-long-path/${i}?utm_source=bulk&utm_medium=test`,
      title: `Link ${i}`,
    }));
    assert.ok(JSON.stringify({ links }).length > h().server.container.tuning.BODY_LIMIT_BYTES);
    const res = await bulk(key, { links });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(res.body.data.length, 1000);
    assert.ok(res.body.data.every((d: Json, i: number) => d.status === 201 && d.data.title === `Link ${i}`));
    assert.equal(await linkTotal(h(), key), 1000);
  });

  test('malformed bodies: a 422 naming links (or body), a 400 for broken JSON; nothing created', async () => {
    const { key } = await h().account();
    assertInvalid(await bulk(key, {}), ['links']);
    assertInvalid(await bulk(key, { links: 'x' }), ['links']);
    assertInvalid(await bulk(key, { links: { url: 'https://example.com/' } }), ['links']);
    assertInvalid(await bulk(key, [{ url: 'https://example.com/' }]), ['body']);
    const broken = await h().request('POST', '/api/v1/links/bulk', {
      key,
      body: '{"links": [',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400, broken.text);
    const empty = await bulk(key, { links: [] });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.data, []);
    assert.equal(await linkTotal(h(), key), 0);
  });

  test('needs a key; a body over BULK_BODY_LIMIT_BYTES is a 413', async () => {
    assert.equal((await bulk('', { links: [] })).status, 401);
    const { key } = await h().account();
    const huge = {
      links: [{ url: 'https://example.com/', title: 'x'.repeat(h().server.container.tuning.BULK_BODY_LIMIT_BYTES) }],
    };
    assert.equal((await bulk(key, huge)).status, 413);
    assert.equal(await linkTotal(h(), key), 0);
  });
});
