import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import {
  assertNotFound,
  idsOf,
  makeDomain,
  makeLink,
  makePixel,
  makeSpace,
  unique,
  updateRefused,
} from './links-support.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The record without the fields any successful update may move. */
const stable = (l: Json) => {
  const { updated_at: _u, ...rest } = l;
  return rest;
};

onEachEngine('links API: update and delete', (h) => {
  async function fullLink(key: string): Promise<Json> {
    const space = await makeSpace(h(), key);
    const pixel = await makePixel(h(), key);
    return makeLink(h(), key, {
      url: 'https://example.com/full',
      alias: unique('full'),
      title: 'Kept',
      password: 'pw',
      space: space.id,
      pixels: [pixel.id],
      privacy: 2,
      privacy_password: 'stats',
      expiration_url: 'https://example.com/gone',
      expiration_date: '2030-05-06',
      expiration_time: '07:08',
      expiration_clicks: 9,
      target_type: 1,
      country: [{ key: 'US', value: 'https://us.example.com' }],
      rotation: [{ value: 'https://r.example.com' }],
    });
  }

  test('PUT and PATCH change only the fields sent', async () => {
    const { key } = await h().account();
    const link = await fullLink(key);
    for (const method of ['PUT', 'PATCH']) {
      const title = `Title via ${method}`;
      const res = await h().request(method, `/api/v1/links/${link.id}`, { key, form: { title } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 200);
      assert.deepEqual(stable(res.body.data), { ...stable(link), title });
      assert.ok(Date.parse(res.body.data.updated_at) >= Date.parse(link.updated_at));
      const read = await h().request('GET', `/api/v1/links/${link.id}`, { key });
      assert.deepEqual(read.body.data, res.body.data);
    }
    const viaJson = await h().request('PATCH', `/api/v1/links/${link.id}`, {
      key,
      json: { url: 'https://example.com/moved' },
    });
    assert.equal(viaJson.status, 200, viaJson.text);
    assert.deepEqual(stable(viaJson.body.data), {
      ...stable(link),
      title: 'Title via PATCH',
      url: 'https://example.com/moved',
    });
  });

  test('an empty update changes nothing', async () => {
    const { key } = await h().account();
    const link = await fullLink(key);
    for (const options of [{ form: {} }, { json: {} }, { form: { unknown_field: 'x' } }]) {
      const res = await h().request('PUT', `/api/v1/links/${link.id}`, { key, ...options });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(stable(res.body.data), stable(link));
    }
  });

  test('domain is ignored on update, even a foreign or unknown one', async () => {
    const { key } = await h().account();
    const other = await h().account();
    const [d1, d2, foreign] = [
      await makeDomain(h(), key),
      await makeDomain(h(), key),
      await makeDomain(h(), other.key),
    ];
    const onDomain = await makeLink(h(), key, { domain: d1.id });
    const onDefault = await makeLink(h(), key);
    for (const domain of [d2.id, foreign.id, 999999, '', 'abc', 0, -3]) {
      for (const [link, expected] of [
        [onDomain, d1],
        [onDefault, null],
      ] as const) {
        for (const field of ['domain', 'domain_id']) {
          const res = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { [field]: domain } });
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(res.body.data.domain, expected);
          assert.equal(res.body.data.short_url, link.short_url);
        }
      }
    }
  });

  test('an empty string clears: password, expiration, space, pixels, lists, clicks limit, url', async () => {
    const { key } = await h().account();
    const link = await fullLink(key);
    const res = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key,
      form: 'password=&expiration_date=&expiration_time=&space=&pixels[]=&expiration_url=&expiration_clicks=&country=&rotation=&title=',
    });
    assert.equal(res.status, 200, res.text);
    const l = res.body.data;
    assert.equal(l.password, false);
    assert.equal(l.ends_at, null);
    assert.equal(l.space, null);
    assert.deepEqual(l.pixels, []);
    assert.equal(l.expiration_url, null);
    assert.equal(l.expiration_clicks, null);
    assert.equal(l.country_target, null);
    assert.equal(l.rotation_target, null);
    assert.equal(l.title, null);
    // Untouched by the clearing.
    assert.equal(l.url, link.url);
    assert.equal(l.privacy, 2);
    assert.equal(l.privacy_password, true);
    assert.equal(l.target_type, 1);
    assert.deepEqual((await h().request('GET', `/api/v1/links/${link.id}`, { key })).body.data, l);
  });

  test('JSON null clears too, and lists are replaced whole', async () => {
    const { key } = await h().account();
    const link = await fullLink(key);
    const p = await makePixel(h(), key);
    const res = await h().request('PATCH', `/api/v1/links/${link.id}`, {
      key,
      json: { password: null, space: null, pixels: [p.id], country: [{ key: 'gb', value: 'https://uk.example.com' }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.password, false);
    assert.equal(res.body.data.space, null);
    assert.deepEqual(res.body.data.pixels, [p]);
    assert.deepEqual(res.body.data.country_target, [{ key: 'GB', value: 'https://uk.example.com' }]);
    assert.deepEqual(res.body.data.rotation_target, link.rotation_target);
  });

  test('targeting can be switched to language (3) and lists added later', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    const res = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key,
      form: 'target_type=3&language[0][key]=FR&language[0][value]=https%3A%2F%2Ffr.example.com&language[1][key]=en&language[1][value]=https%3A%2F%2Fen.example.com',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.target_type, 3);
    assert.deepEqual(res.body.data.language_target, [
      { key: 'fr', value: 'https://fr.example.com' },
      { key: 'en', value: 'https://en.example.com' },
    ]);
    assert.equal(res.body.data.country_target, null);
  });

  test('privacy back to public drops the statistics password', async () => {
    const { key } = await h().account();
    const link = await fullLink(key);
    const res = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { privacy: 0 } });
    assert.equal(res.body.data.privacy, 0);
    assert.equal(res.body.data.privacy_password, false);
  });

  test('alias: change, change of letter case only, taken by another link', async () => {
    const { key } = await h().account();
    const a = await makeLink(h(), key, { alias: unique('first') });
    const b = await makeLink(h(), key, { alias: unique('second') });
    const fresh = unique('Renamed');
    const renamed = await h().request('PUT', `/api/v1/links/${a.id}`, { key, form: { alias: fresh } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.data.alias, fresh);
    assert.equal(renamed.body.data.short_url, `http://short.test/${fresh}`);
    const recased = await h().request('PUT', `/api/v1/links/${a.id}`, { key, form: { alias: fresh.toUpperCase() } });
    assert.equal(recased.status, 200, recased.text);
    assert.equal(recased.body.data.alias, fresh.toUpperCase());
    await updateRefused(h(), key, b.id, { form: { alias: fresh.toLowerCase() } }, ['alias']);
    // The old alias is free again.
    assert.equal((await makeLink(h(), key, { alias: a.alias })).alias, a.alias);
  });

  test('alias uniqueness on update is per domain', async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const onDomain = await makeLink(h(), key, { domain: domain.id, alias: unique('dom') });
    const onDefault = await makeLink(h(), key, { alias: unique('def') });
    const swapped = await h().request('PUT', `/api/v1/links/${onDomain.id}`, {
      key,
      form: { alias: onDefault.alias.toUpperCase() },
    });
    assert.equal(swapped.status, 200, swapped.text);
    assert.equal(swapped.body.data.short_url, `https://${domain.name}/${onDefault.alias.toUpperCase()}`);
    const sibling = await makeLink(h(), key, { domain: domain.id });
    await updateRefused(h(), key, sibling.id, { form: { alias: onDefault.alias } }, ['alias']);
  });

  test('disabled toggles both ways', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    for (const disabled of [1, 0, 1]) {
      const res = await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { disabled } });
      assert.equal(res.body.data.disabled, disabled);
      assert.equal((await h().request('GET', `/api/v1/links/${link.id}`, { key })).body.data.disabled, disabled);
    }
  });

  test('expiration set, moved and cleared in the account time zone', async () => {
    const { key } = await h().account(undefined, 'Europe/Paris');
    const link = await makeLink(h(), key);
    const set = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key,
      form: { expiration_date: '2030-12-24', expiration_time: '18:00' },
    });
    assert.equal(set.body.data.ends_at, '2030-12-24T17:00:00.000Z');
    const cleared = await h().request('PUT', `/api/v1/links/${link.id}`, {
      key,
      json: { expiration_date: '', expiration_time: '' },
    });
    assert.equal(cleared.body.data.ends_at, null);
  });

  test('unknown and malformed ids answer the 404 envelope on read, update and delete', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999', `${link.id}x`]) {
      assertNotFound(await h().request('GET', `/api/v1/links/${id}`, { key }));
      assertNotFound(await h().request('PUT', `/api/v1/links/${id}`, { key, form: { title: 'x' } }));
      assertNotFound(await h().request('PATCH', `/api/v1/links/${id}`, { key, json: { title: 'x' } }));
      // Even with a bad body, an unknown id is a 404 first.
      assertNotFound(
        await h().request('PUT', `/api/v1/links/${id}`, { key, form: { url: 'javascript:x', privacy: 9 } }),
      );
      assertNotFound(await h().request('DELETE', `/api/v1/links/${id}`, { key }));
      assertNotFound(await h().request('DELETE', `/links/${id}/destroy`, { key }));
    }
    assert.equal((await h().request('GET', `/api/v1/links/${link.id}`, { key })).body.data.title, null);
  });

  test('delete at the seed path and at the phpShort path, then 404', async () => {
    const { key } = await h().account();
    const keep = await makeLink(h(), key);
    for (const at of [(id: number) => `/links/${id}/destroy`, (id: number) => `/api/v1/links/${id}`]) {
      const link = await makeLink(h(), key, { alias: unique('gone') });
      const res = await h().request('DELETE', at(link.id), { key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { id: link.id, object: 'link', deleted: true, status: 200 });
      assertNotFound(await h().request('GET', `/api/v1/links/${link.id}`, { key }));
      assertNotFound(await h().request('DELETE', at(link.id), { key }));
      assertNotFound(await h().request('PUT', `/api/v1/links/${link.id}`, { key, form: { title: 'x' } }));
      assert.ok(!(await idsOf(h(), key)).includes(link.id));
      // Its alias may be used again.
      await makeLink(h(), key, { alias: link.alias });
    }
    assert.ok((await idsOf(h(), key)).includes(keep.id));
  });

  test('deleting a space leaves its links without a space; deleting a pixel detaches it', async () => {
    const { key } = await h().account();
    const space = await makeSpace(h(), key);
    const [p1, p2] = [await makePixel(h(), key), await makePixel(h(), key)];
    const link = await makeLink(h(), key, { space: space.id, pixels: [p1.id, p2.id] });
    assert.equal((await h().request('DELETE', `/api/v1/spaces/${space.id}`, { key })).status, 200);
    assert.equal((await h().request('DELETE', `/pixels/${p1.id}/destroy`, { key })).status, 200);
    const read = await h().request('GET', `/api/v1/links/${link.id}`, { key });
    assert.equal(read.status, 200);
    assert.equal(read.body.data.space, null);
    assert.deepEqual(read.body.data.pixels, [p2]);
  });
});
