import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import {
  assertBounded,
  BAD_NUMBERS,
  badSpellings,
  fieldName,
  nested,
  numericFields,
  type JsonSchema,
} from '../../support/numeric-fuzz.ts';

interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
type Document = { paths: Record<string, Record<string, Operation>> };

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Fields an operation ignores whatever their value (docs/api.md §4: a link's domain is chosen on create only). */
const IGNORED: Record<string, readonly string[]> = {
  'put /api/v1/links/{id}': ['domain'],
  'patch /api/v1/links/{id}': ['domain'],
};

/** Every operation of the OpenAPI document, so a numeric field added to any schema is fuzzed too. */
async function operations(h: Harness): Promise<{ method: string; path: string; op: Operation }[]> {
  const doc = (await h.request('GET', '/api/openapi.json')).body as Document;
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
}

/** The query a route needs besides the fuzzed field: its required parameters, at their first choice or default. */
function requiredQuery(op: Operation, except: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.parameters ?? []) {
    if (p.in !== 'query' || !p.required || p.name === except) continue;
    const value = p.schema.enum?.[0] ?? p.schema.default;
    assert.ok(typeof value === 'string' || typeof value === 'number', `no value to send for the required ${p.name}`);
    out[p.name] = String(value);
  }
  return out;
}

/** Record ids in paths stay valid (1): the schema refuses a bad field before any record is read. */
// Other path numbers (a rule's index) at their first value.
const withIds = (path: string, id = '1') => path.replace(/\{id\}/g, id).replace(/\{[a-z_]+\}/g, '0');

const RECORDS: Record<string, Record<string, string>> = {
  links: { url: 'https://example.com/fuzz' },
  pixels: { name: 'Fuzz', type: 'facebook', value: '1' },
  spaces: { name: 'Fuzz' },
  domains: { name: 'fuzz.example' },
};

async function totals(h: Harness, key: string): Promise<number[]> {
  const lists = ['/api/v1/links', '/api/v1/pixels', '/api/v1/spaces', '/api/v1/domains'];
  return Promise.all(lists.map(async (list) => (await h.request('GET', list, { key })).body.meta.total as number));
}

/** Issue 30 (finding 4): every numeric field of every API route, fed every refused spelling. */
onEachEngine('API: the one reading of numbers', (h) => {
  test('every numeric query parameter refuses each bad spelling with a 422 naming it', async () => {
    const { key } = await h().account();
    let fuzzed = 0;
    for (const { method, path, op } of await operations(h())) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        for (const field of numericFields(p.schema, [p.name])) {
          assertBounded(field, `${method} ${path}`);
          for (const bad of badSpellings(field.schema)) {
            const query = new URLSearchParams({ ...requiredQuery(op, p.name), [p.name]: bad });
            const res = await h().request(method.toUpperCase(), `${withIds(path)}?${query}`, { key });
            assert.equal(res.status, 422, `${method} ${path}?${query}: ${res.text}`);
            assert.deepEqual(Object.keys(res.body.message), [p.name], `${method} ${path}?${query}`);
            fuzzed++;
          }
        }
      }
    }
    assert.ok(fuzzed > 100, `only ${fuzzed} requests: the document lists fewer numeric parameters than it should`);
  });

  test('every numeric path id answers 404 for each bad spelling, as an unknown id does', async () => {
    const { key } = await h().account();
    for (const { method, path } of await operations(h())) {
      if (!path.includes('{id}')) continue;
      for (const bad of BAD_NUMBERS) {
        const res = await h().request(method.toUpperCase(), withIds(path, encodeURIComponent(bad)), {
          key,
          ...(BODY_METHODS.has(method) ? { form: {} } : {}),
        });
        assert.equal(res.status, 404, `${method} ${path} id=${bad}: ${res.text}`);
      }
    }
  });

  test('every numeric body field, as a form or as a JSON string, refuses each bad spelling by name; nothing is written', async () => {
    const { key } = await h().account();
    // A record of each kind, for the routes that read it before judging the body.
    const made: Record<string, number> = {};
    for (const [kind, form] of Object.entries(RECORDS)) {
      const res = await h().request('POST', `/api/v1/${kind}`, { key, form });
      assert.equal(res.status, 201, res.text);
      made[kind] = res.body.data.id;
    }
    const idFor = (path: string) => {
      const kind = /^(?:\/api\/v1)?\/([a-z]+)\/\{id\}/.exec(path)?.[1] ?? '';
      return String(made[kind === 'stats' ? 'links' : kind] ?? 1);
    };
    const before = await totals(h(), key);
    let fuzzed = 0;
    for (const { method, path, op } of await operations(h())) {
      const schema = op.requestBody?.content['application/x-www-form-urlencoded']?.schema;
      for (const field of numericFields(schema)) {
        assertBounded(field, `${method} ${path}`);
        const name = fieldName(field.path);
        if (IGNORED[`${method} ${path}`]?.includes(name)) continue;
        for (const bad of badSpellings(field.schema)) {
          for (const body of [{ form: nested(field.path, bad) }, { json: nested(field.path, bad) }]) {
            const res = await h().request(method.toUpperCase(), withIds(path, idFor(path)), { key, ...body });
            const sent = `${method} ${path} ${JSON.stringify(body)}: ${res.text}`;
            if (res.status === 200 && path === '/api/v1/links/bulk' && field.path[0] === 'links') {
              // A bulk create answers each link apart (api.md §12): this one refused, naming its field.
              assert.equal(res.body.data[0].status, 422, sent);
              assert.ok(Object.keys(res.body.data[0].message).includes(fieldName(field.path.slice(2))), sent);
            } else {
              assert.equal(res.status, 422, sent);
              assert.ok(Object.keys(res.body.message).includes(name), sent);
            }
            fuzzed++;
          }
        }
      }
    }
    assert.ok(fuzzed > 100, `only ${fuzzed} requests`);
    assert.deepEqual(await totals(h(), key), before);
  });

  test('decimal digits still read as numbers; JSON numbers are taken as they are', async () => {
    const { key } = await h().account();
    const list = await h().request('GET', '/api/v1/links?page=02&per_page=10', { key });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.meta.current_page, 2);
    const space = await h().request('POST', '/api/v1/spaces', { key, json: { name: 'Numbers', color: 3 } });
    assert.equal(space.status, 201, space.text);
    const form = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/n', space: String(space.body.data.id), expiration_clicks: '5' },
    });
    assert.equal(form.status, 201, form.text);
    assert.equal(form.body.data.expiration_clicks, 5);
    const json = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/j', space: space.body.data.id, expiration_clicks: 7 },
    });
    assert.equal(json.status, 201, json.text);
    assert.equal(json.body.data.space.id, space.body.data.id);
  });
});
