import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine, type Harness } from '../../support/harness.ts';

const NOT_FOUND = { message: 'Resource not found.', status: 404 };

interface Kind {
  plural: 'pixels' | 'spaces' | 'domains';
  create: () => Record<string, unknown>;
  update: Record<string, unknown>;
}

const KINDS: Kind[] = [
  {
    plural: 'pixels',
    create: () => ({ name: 'Mine', type: 'facebook', value: 'a1' }),
    update: { name: 'Stolen', value: 'b2' },
  },
  { plural: 'spaces', create: () => ({ name: 'Mine', color: 2 }), update: { name: 'Stolen', color: 5 } },
  {
    plural: 'domains',
    create: () => ({ name: `iso-${randomBytes(3).toString('hex')}.example.com` }),
    update: { index_page: 'https://evil.example/' },
  },
];

async function create(h: Harness, key: string, plural: string, form: Record<string, unknown>) {
  const res = await h.request('POST', `/api/v1/${plural}`, { key, form });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, unknown> & { id: number };
}

onEachEngine('API tenant isolation', (h) => {
  for (const kind of KINDS) {
    test(`${kind.plural}: another account's key can neither see nor change nor delete them`, async () => {
      const a = await h().account();
      const b = await h().account();
      const mine = await create(h(), a.key, kind.plural, kind.create());
      await create(h(), b.key, kind.plural, kind.create());

      const attempts: [string, string, Record<string, unknown> | undefined][] = [
        ['GET', `/api/v1/${kind.plural}/${mine.id}`, undefined],
        ['PUT', `/api/v1/${kind.plural}/${mine.id}`, kind.update],
        ['PATCH', `/api/v1/${kind.plural}/${mine.id}`, kind.update],
        ['PUT', `/api/v1/${kind.plural}/${mine.id}`, {}],
        ['DELETE', `/api/v1/${kind.plural}/${mine.id}`, undefined],
        ['DELETE', `/${kind.plural}/${mine.id}/destroy`, undefined],
      ];
      for (const [method, path, form] of attempts) {
        const res = await h().request(method, path, form ? { key: b.key, form } : { key: b.key });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.body, NOT_FOUND, `${method} ${path}`);
      }
      // An invalid body on someone else's record is still "not found", not a hint that it exists.
      const invalid = await h().request('PUT', `/api/v1/${kind.plural}/${mine.id}`, {
        key: b.key,
        json: { name: 5, color: 99, type: 'tiktok', value: '<x>' },
      });
      assert.equal(invalid.status, 404);

      const listB = await h().request('GET', `/api/v1/${kind.plural}?per_page=100`, { key: b.key });
      assert.equal(listB.body.meta.total, 1);
      assert.ok(listB.body.data.every((r: { id: number }) => r.id !== mine.id));

      const still = await h().request('GET', `/api/v1/${kind.plural}/${mine.id}`, { key: a.key });
      assert.equal(still.status, 200);
      assert.deepEqual(still.body.data, mine, 'untouched');
      const listA = await h().request('GET', `/api/v1/${kind.plural}`, { key: a.key });
      assert.deepEqual(
        listA.body.data.map((r: { id: number }) => r.id),
        [mine.id],
      );
    });
  }

  test("a link cannot use another account's pixel, space or domain", async () => {
    const a = await h().account();
    const b = await h().account();
    const pixel = await create(h(), a.key, 'pixels', KINDS[0]!.create());
    const space = await create(h(), a.key, 'spaces', KINDS[1]!.create());
    const domain = await create(h(), a.key, 'domains', KINDS[2]!.create());
    for (const [field, value] of [
      ['pixels', [pixel.id]],
      ['space', space.id],
      ['domain', domain.id],
    ] as const) {
      const res = await h().request('POST', '/api/v1/links', {
        key: b.key,
        form: { url: 'https://example.com/x', [field]: value },
      });
      assert.equal(res.status, 422, field);
      assert.ok(res.body.message[field], `${field}: ${res.text}`);
    }
    assert.equal((await h().request('GET', '/api/v1/links', { key: b.key })).body.meta.total, 0);
  });

  test("list filters on another account's ids find nothing", async () => {
    const a = await h().account();
    const b = await h().account();
    const space = await create(h(), a.key, 'spaces', KINDS[1]!.create());
    const made = await h().request('POST', '/api/v1/links', {
      key: a.key,
      form: { url: 'https://example.com/y', space: space.id },
    });
    assert.equal(made.status, 201);
    const res = await h().request('GET', `/api/v1/links?space=${space.id}`, { key: b.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
  });
});
