import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

const UNAUTHENTICATED = { message: 'Unauthenticated.', status: 401 };

onEachEngine('API account and authentication', (h) => {
  test('GET /api/v1/account answers the account of the key', async () => {
    const me = await h().account(undefined, 'Europe/Paris');
    const res = await h().request('GET', '/api/v1/account', { key: me.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 200);
    const a = res.body.data;
    assert.deepEqual(Object.keys(a).sort(), ['created_at', 'email', 'id', 'name', 'timezone']);
    assert.equal(a.id, me.id);
    assert.equal(a.email, me.email);
    assert.equal(a.name, me.email.split('@')[0]);
    assert.equal(a.timezone, 'Europe/Paris');
    assert.match(a.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(!('api_key' in a) && !('key' in a));

    const other = await h().account();
    const theirs = await h().request('GET', '/api/v1/account', { key: other.key });
    assert.equal(theirs.body.data.id, other.id);
    assert.equal(theirs.body.data.timezone, 'UTC');
  });

  test('a missing, malformed or unknown key answers 401 JSON, whatever Accept says', async () => {
    const { key } = await h().account();
    const unknown = `lpx_${'A'.repeat(43)}`;
    const cases: { label: string; headers: Record<string, string> }[] = [
      { label: 'missing', headers: {} },
      { label: 'empty bearer', headers: { authorization: 'Bearer ' } },
      { label: 'not bearer', headers: { authorization: `Basic ${key}` } },
      { label: 'malformed', headers: { authorization: 'Bearer not-a-key' } },
      { label: 'truncated', headers: { authorization: `Bearer ${key.slice(0, -1)}` } },
      { label: 'unknown', headers: { authorization: `Bearer ${unknown}` } },
      { label: 'two tokens', headers: { authorization: `Bearer ${key} ${key}` } },
    ];
    const paths: [string, string][] = [
      ['GET', '/api/v1/account'],
      ['GET', '/api/v1/pixels'],
      ['GET', '/api/v1/pixels/1'],
      ['POST', '/api/v1/spaces'],
      ['PUT', '/api/v1/domains/1'],
      ['DELETE', '/pixels/1/destroy'],
      ['DELETE', '/api/v1/links/1'],
      ['GET', '/api/v1/links'],
    ];
    for (const accept of ['application/json', 'text/html', '*/*']) {
      for (const c of cases) {
        for (const [method, path] of paths) {
          const res = await h().request(method, path, { headers: { ...c.headers, accept } });
          const where = `${c.label} ${method} ${path} (${accept})`;
          assert.equal(res.status, 401, where);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where);
          assert.deepEqual(res.body, UNAUTHENTICATED, where);
          assert.equal(res.headers.get('location'), null, where);
        }
      }
    }
  });

  test('the scheme word is case-insensitive; a good key works', async () => {
    const { key } = await h().account();
    const res = await h().request('GET', '/api/v1/account', { headers: { authorization: `bearer ${key}` } });
    assert.equal(res.status, 200);
  });

  test("a revoked key answers 401; the account's other keys still work", async () => {
    const me = await h().account();
    const accounts = h().server.container.accounts;
    const second = await accounts.createKey(me.email, 'second', TEST_ACTOR);
    assert.equal((await h().request('GET', '/api/v1/account', { key: second.apiKey })).status, 200);

    const keys = await accounts.listKeys(me.email);
    assert.equal(keys.length, 2);
    const first = keys.find((k) => k.id !== second.key.id)!;
    await accounts.revokeKey(me.email, first.id, TEST_ACTOR);

    const revoked = await h().request('GET', '/api/v1/pixels', { key: me.key, headers: { accept: 'text/html' } });
    assert.equal(revoked.status, 401);
    assert.deepEqual(revoked.body, UNAUTHENTICATED);
    const write = await h().request('POST', '/api/v1/pixels', {
      key: me.key,
      form: { name: 'x', type: 'bing', value: 'x' },
    });
    assert.equal(write.status, 401);
    assert.equal((await h().request('GET', '/api/v1/account', { key: second.apiKey })).status, 200);
    const list = await h().request('GET', '/api/v1/pixels', { key: second.apiKey });
    assert.equal(list.body.meta.total, 0, 'the refused write wrote nothing');
  });

  test('authentication comes before validation and routing to a record', async () => {
    // A bad body or an unknown id without a key is still a 401, never a 422 or 404.
    const bad = await h().request('POST', '/api/v1/pixels', { form: { type: 'tiktok' } });
    assert.equal(bad.status, 401);
    const unsupported = await h().request('POST', '/api/v1/pixels', {
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(unsupported.status, 401);
    assert.equal((await h().request('GET', '/api/v1/pixels/999999')).status, 401);
  });
});
