import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine, type Harness } from '../../support/harness.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Host names are unique across the service, so every test takes its own. */
const host = (label = 'go') => `${label}-${randomBytes(3).toString('hex')}.example.com`;

async function makeDomain(h: Harness, key: string, fields: Record<string, unknown>) {
  const res = await h.request('POST', '/api/v1/domains', { key, form: fields });
  assert.equal(res.status, 201, res.text);
  return res.body.data as {
    id: number;
    name: string;
    index_page: string | null;
    not_found_page: string | null;
    status: 'pending' | 'verified';
    verification: { token: string; txt_name: string; file_url: string };
  };
}

async function countDomains(h: Harness, key: string): Promise<number> {
  return (await h.request('GET', '/api/v1/domains', { key })).body.meta.total as number;
}

onEachEngine('API domains', (h) => {
  test('create, read, update, list and delete a domain', async () => {
    const { key } = await h().account();
    const name = host();
    const made = await h().request('POST', '/api/v1/domains', {
      key,
      form: { name: name.toUpperCase(), index_page: 'https://example.com/home' },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.status, 201);
    const d = made.body.data;
    assert.deepEqual(Object.keys(d).sort(), [
      'apple_app_site_association',
      'assetlinks',
      'created_at',
      'id',
      'index_page',
      'name',
      'not_found_page',
      'status',
      'updated_at',
      'verification',
      'verified_at',
    ]);
    assert.equal(d.name, name, 'host names are stored in lower case');
    // A new domain waits for its owner to prove control of the name, and says how.
    assert.equal(d.status, 'pending');
    assert.equal(d.verified_at, null);
    assert.match(d.verification.token, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(d.verification.txt_name, `_linkpix.${name}`);
    assert.equal(d.verification.file_url, `http://${name}/.well-known/linkpix/${d.verification.token}`);
    assert.equal(d.index_page, 'https://example.com/home');
    assert.equal(d.not_found_page, null);
    assert.match(d.created_at, ISO);

    assert.deepEqual((await h().request('GET', `/api/v1/domains/${d.id}`, { key })).body, { data: d, status: 200 });

    const put = await h().request('PUT', `/api/v1/domains/${d.id}`, {
      key,
      form: { not_found_page: 'https://example.com/404' },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(
      [put.body.data.name, put.body.data.index_page, put.body.data.not_found_page],
      [name, 'https://example.com/home', 'https://example.com/404'],
    );
    // An empty string clears a page.
    const cleared = await h().request('PATCH', `/api/v1/domains/${d.id}`, { key, form: { index_page: '' } });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.data.index_page, null);
    assert.equal(cleared.body.data.not_found_page, 'https://example.com/404');
    const jsonNull = await h().request('PATCH', `/api/v1/domains/${d.id}`, { key, json: { not_found_page: null } });
    assert.equal(jsonNull.status, 200);
    assert.equal(jsonNull.body.data.not_found_page, null);

    const list = await h().request('GET', '/api/v1/domains', { key });
    assert.deepEqual(list.body.data, [jsonNull.body.data]);

    const del = await h().request('DELETE', `/api/v1/domains/${d.id}`, { key });
    assert.deepEqual(del.body, { id: d.id, object: 'domain', deleted: true, status: 200 });
    assert.equal((await h().request('GET', `/api/v1/domains/${d.id}`, { key })).status, 404);
    // Once deleted, the name is free again.
    await makeDomain(h(), key, { name });
  });

  test('the seed-style delete path works for domains too', async () => {
    const { key } = await h().account();
    const d = await makeDomain(h(), key, { name: host() });
    const del = await h().request('DELETE', `/domains/${d.id}/destroy`, { key });
    assert.deepEqual(del.body, { id: d.id, object: 'domain', deleted: true, status: 200 });
  });

  test('the name must be a host name', async () => {
    const { key } = await h().account();
    const bad = [
      'not a host',
      'http://x.com',
      'x',
      'x.com/path',
      'x.com:8080',
      '-x.com',
      'x..com',
      '127.0.0.1',
      'short.test',
      'a'.repeat(64) + '.com',
    ];
    for (const name of bad) {
      const res = await h().request('POST', '/api/v1/domains', { key, form: { name } });
      assert.equal(res.status, 422, name);
      assert.deepEqual(Object.keys(res.body.message), ['name'], name);
    }
    const missing = await h().request('POST', '/api/v1/domains', { key, form: {} });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.message.name, ['The name field is required.']);
    assert.equal(await countDomains(h(), key), 0);
    const ok = await makeDomain(h(), key, { name: `  ${host('sub.Deep')}  ` });
    assert.match(ok.name, /^sub\.deep-[0-9a-f]{6}\.example\.com$/);
  });

  test('a name is claimed by many while pending, and held by one once verified', async () => {
    const a = await h().account();
    const b = await h().account();
    const name = host();
    const mine = await makeDomain(h(), a.key, { name });
    // Claiming proves nothing: another account may claim the same name meanwhile.
    const theirs = await makeDomain(h(), b.key, { name: name.toUpperCase() });
    assert.equal(theirs.name, name);
    // An account holds a name once.
    const twice = await h().request('POST', '/api/v1/domains', { key: a.key, form: { name } });
    assert.equal(twice.status, 422);
    assert.deepEqual(twice.body.message, { name: ['The name has already been taken.'] });

    h().dns.publishTxt(mine.verification.txt_name, mine.verification.token);
    const verified = await h().request('POST', `/api/v1/domains/${mine.id}/verify`, { key: a.key });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.data.status, 'verified');

    // Once verified the name is a's alone: b's pending claim cannot verify, nobody can claim it anew.
    const late = await h().request('POST', `/api/v1/domains/${theirs.id}/verify`, { key: b.key });
    assert.equal(late.status, 422);
    assert.deepEqual(late.body.message, { name: ['The name has already been taken.'] });
    assert.equal(
      (await h().request('GET', `/api/v1/domains/${theirs.id}`, { key: b.key })).body.data.status,
      'pending',
    );
    for (const [key, taken] of [
      [b.key, name],
      [b.key, name.toUpperCase()],
      [a.key, name],
    ] as const) {
      const res = await h().request('POST', '/api/v1/domains', { key, form: { name: taken } });
      assert.equal(res.status, 422);
      assert.deepEqual(res.body.message, { name: ['The name has already been taken.'] });
    }
    const other = await makeDomain(h(), b.key, { name: host() });
    const rename = await h().request('PUT', `/api/v1/domains/${other.id}`, { key: b.key, form: { name } });
    assert.equal(rename.status, 422);
    assert.ok(rename.body.message.name);
    assert.equal(await countDomains(h(), b.key), 2);
  });

  test('index_page and not_found_page follow the URL rules', async () => {
    const { key } = await h().account();
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com',
      'example.com',
      'http://',
      'https://exa mple.com',
    ]) {
      const res = await h().request('POST', '/api/v1/domains', {
        key,
        form: { name: host(), index_page: url, not_found_page: url },
      });
      assert.equal(res.status, 422, url);
      assert.deepEqual(Object.keys(res.body.message).sort(), ['index_page', 'not_found_page'], url);
    }
    const long = 'https://example.com/' + 'a'.repeat(2100);
    assert.equal(
      (await h().request('POST', '/api/v1/domains', { key, form: { name: host(), index_page: long } })).status,
      422,
    );
    assert.equal(await countDomains(h(), key), 0);

    const d = await makeDomain(h(), key, {
      name: host(),
      index_page: 'http://example.com/a',
      not_found_page: 'https://example.com/b',
    });
    const refused = await h().request('PUT', `/api/v1/domains/${d.id}`, {
      key,
      form: { index_page: 'javascript:alert(1)' },
    });
    assert.equal(refused.status, 422);
    assert.equal(
      (await h().request('GET', `/api/v1/domains/${d.id}`, { key })).body.data.index_page,
      'http://example.com/a',
    );
  });

  test('every bad field is listed at once', async () => {
    const { key } = await h().account();
    const rules = await h().request('POST', '/api/v1/domains', {
      key,
      json: { name: 'not a host', index_page: 'javascript:x', not_found_page: 'ftp://x' },
    });
    assert.equal(rules.status, 422);
    assert.deepEqual(Object.keys(rules.body.message).sort(), ['index_page', 'name', 'not_found_page']);
    // A field the schema refuses (too long) and fields the rules refuse, in one answer.
    const mixed = await h().request('POST', '/api/v1/domains', {
      key,
      json: { name: 'a'.repeat(254), index_page: 'javascript:x', not_found_page: 'ftp://x' },
    });
    assert.equal(mixed.status, 422);
    assert.deepEqual(Object.keys(mixed.body.message).sort(), ['index_page', 'name', 'not_found_page']);
    assert.equal(await countDomains(h(), key), 0);
  });

  test('list: search, sort and paging', async () => {
    const { key } = await h().account();
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await makeDomain(h(), key, { name: host(i === 3 ? 'needle' : 'hay') }));
    const search = await h().request('GET', '/api/v1/domains?search=NEEDLE', { key });
    assert.deepEqual(
      search.body.data.map((d: { id: number }) => d.id),
      [made[3]!.id],
    );
    const desc = await h().request('GET', '/api/v1/domains', { key });
    assert.equal(desc.body.data.length, 10);
    assert.equal(desc.body.data[0].id, made[10]!.id);
    const asc = await h().request('GET', '/api/v1/domains?sort=asc&per_page=10&page=2', { key });
    assert.deepEqual(
      asc.body.data.map((d: { id: number }) => d.id),
      [made[10]!.id],
    );
    assert.equal(asc.body.meta.total, 11);
  });

  test('a link on a domain has an https short_url on that host; deleting the domain deletes its links', async () => {
    const { key } = await h().account();
    const d = await makeDomain(h(), key, { name: host() });
    const onDomain = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/d', domain: d.id, alias: 'promo' },
    });
    assert.equal(onDomain.status, 201, onDomain.text);
    assert.equal(onDomain.body.data.short_url, `https://${d.name}/promo`);
    assert.equal(onDomain.body.data.domain.id, d.id);
    assert.deepEqual(onDomain.body.data.domain, d);
    const plain = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/plain', alias: 'promo' },
    });
    assert.equal(plain.status, 201, 'the same alias is free on the default domain');
    assert.equal(plain.body.data.short_url, 'http://short.test/promo');
    assert.equal(plain.body.data.domain, null);

    assert.equal((await h().request('DELETE', `/api/v1/domains/${d.id}`, { key })).status, 200);
    assert.equal((await h().request('GET', `/api/v1/links/${onDomain.body.data.id}`, { key })).status, 404);
    assert.equal((await h().request('GET', `/api/v1/links/${plain.body.data.id}`, { key })).status, 200);
    const links = await h().request('GET', '/api/v1/links', { key });
    assert.deepEqual(
      links.body.data.map((l: { id: number }) => l.id),
      [plain.body.data.id],
    );
  });
});
