import { test } from 'node:test';
import assert from 'node:assert/strict';
// Ajv comes with Fastify (it validates every request); here it checks the document's schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { onEachEngine, type Harness, type Reply } from '../../support/harness.ts';
import { apiRoutes } from '../../../src/adapters/http/routes.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function fetchDoc(h: Harness): Promise<Json> {
  const res = await h.request('GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return res.body;
}

/** Every operation of the document as [path, method, operation]. */
function operations(doc: Json): [string, string, Json][] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>)
      .filter(([m]) => HTTP_METHODS.includes(m))
      .map(([m, op]) => [path, m, op] as [string, string, Json]),
  );
}

/** The method + path pairs the route table serves, in OpenAPI's `{id}` form. */
function expectedOperations(h: Harness): string[] {
  return (
    apiRoutes(h.server.container, h.server.container.tuning.BULK_BODY_LIMIT_BYTES)
      .flatMap((route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
        return methods.map((m) => `${String(m).toLowerCase()} ${path}`);
      })
      // In scopes of their own, with the multipart parser.
      .concat(
        'post /api/v1/links/import',
        'put /api/v1/links/{id}/qr-logo',
        'delete /api/v1/links/{id}/qr-logo',
        'put /api/v1/links/{id}/social-card/image',
        'delete /api/v1/links/{id}/social-card/image',
      )
      .sort()
  );
}

function resolvePointer(doc: Json, ref: string): unknown {
  assert.ok(ref.startsWith('#/'), `only local $refs are expected: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((node, key) => (node === undefined || node === null ? undefined : node[key]), doc);
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

function validatorFor(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  return (path: string, method: string, res: Reply) => {
    const pointer = ['paths', path, method, 'responses', String(res.status), 'content', 'application/json', 'schema']
      .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const validate = ajv.getSchema(`openapi.json#/${pointer}`);
    assert.ok(validate, `no documented ${res.status} answer for ${method.toUpperCase()} ${path}`);
    assert.ok(
      validate(res.body),
      `${method.toUpperCase()} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${res.text}`,
    );
  };
}

onEachEngine('API OpenAPI document', (h) => {
  test('is a structurally valid OpenAPI 3.1 document', async () => {
    const doc = await fetchDoc(h());
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info?.title, 'string');
    assert.equal(typeof doc.info?.version, 'string');
    assert.equal(doc.servers?.[0]?.url, 'http://short.test');
    assert.equal(typeof doc.paths, 'object');
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.bearerAuth.description,
    });

    const ops = operations(doc);
    assert.ok(ops.length > 0);
    for (const [path, method, op] of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.match(path, /^\/[^:]*$/, `${where}: path uses {param} form`);
      const statuses = Object.keys(op.responses ?? {});
      assert.ok(statuses.length > 0, `${where}: has responses`);
      assert.ok(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${where}: has a success response`,
      );
      for (const s of statuses) {
        assert.match(s, /^([1-5]\d\d|[1-5]XX|default)$/, `${where}: status key ${s}`);
        assert.equal(typeof op.responses[s].description, 'string', `${where} ${s}: description`);
      }
      for (const req of op.security ?? []) {
        for (const name of Object.keys(req))
          assert.ok(doc.components.securitySchemes[name], `${where}: security ${name}`);
      }
      const declared = (op.parameters ?? [])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name)
        .sort();
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(declared, templated, `${where}: path parameters`);
      for (const p of op.parameters ?? []) {
        assert.ok(['query', 'header', 'path', 'cookie'].includes(p.in), `${where}: parameter ${p.name}`);
        if (p.in === 'path') assert.equal(p.required, true, `${where}: path parameter ${p.name} is required`);
        if (p.in === 'query' && p.schema?.default !== undefined) {
          assert.notEqual(p.required, true, `${where}: ${p.name} has a default, so it is not required`);
        }
      }
      const upload = ['/api/v1/links/{id}/qr-logo', '/api/v1/links/{id}/social-card/image'].includes(path);
      if (path === '/api/v1/links/import' || (upload && method === 'put')) {
        assert.deepEqual(
          Object.keys(op.requestBody?.content ?? {}),
          ['multipart/form-data'],
          `${where}: request body types`,
        );
      } else if (method === 'post' || method === 'put' || method === 'patch') {
        assert.deepEqual(
          Object.keys(op.requestBody?.content ?? {}).sort(),
          ['application/json', 'application/x-www-form-urlencoded'],
          `${where}: request body types`,
        );
      }
    }
    for (const ref of collectRefs(doc)) assert.notEqual(resolvePointer(doc, ref), undefined, `$ref ${ref} resolves`);
    // Every schema in the document compiles as JSON Schema 2020-12 (OpenAPI 3.1's dialect).
    validatorFor(doc);
  });

  test('lists every route of the route table, and nothing else', async () => {
    const doc = await fetchDoc(h());
    const documented = operations(doc)
      .map(([path, method]) => `${method} ${path}`)
      .sort();
    const expected = expectedOperations(h());
    assert.ok(expected.length >= 25, `the route table has ${expected.length} operations`);
    assert.deepEqual(documented, expected);
    for (const needed of [
      'get /api/v1/pixels',
      'delete /pixels/{id}/destroy',
      'delete /api/v1/pixels/{id}',
      'patch /api/v1/spaces/{id}',
      'post /api/v1/domains',
      'get /api/v1/account',
      'delete /links/{id}/destroy',
      'put /api/v1/links/{id}',
    ]) {
      assert.ok(documented.includes(needed), needed);
    }
    for (const hidden of ['/health', '/api/openapi.json', '/docs']) assert.equal(doc.paths[hidden], undefined, hidden);
  });

  test('real answers match the documented schemas', async () => {
    const check = validatorFor(await fetchDoc(h()));
    const { key } = await h().account();
    const host = `oa-${Date.now().toString(36)}.example.com`;
    const calls: [string, string, string, Record<string, unknown>?][] = [
      ['POST', '/api/v1/pixels', '/api/v1/pixels', { name: 'P', type: 'bing', value: 'x1' }],
      ['POST', '/api/v1/spaces', '/api/v1/spaces', { name: 'S', color: 3 }],
      ['POST', '/api/v1/domains', '/api/v1/domains', { name: host, index_page: 'https://example.com' }],
      ['POST', '/api/v1/pixels', '/api/v1/pixels', { type: 'tiktok' }],
      ['GET', '/api/v1/pixels', '/api/v1/pixels'],
      ['GET', '/api/v1/spaces?per_page=20', '/api/v1/spaces'],
      ['GET', '/api/v1/domains', '/api/v1/domains'],
      ['GET', '/api/v1/account', '/api/v1/account'],
      ['GET', '/api/v1/pixels/987654', '/api/v1/pixels/{id}'],
    ];
    for (const [method, url, path, form] of calls) {
      check(path, method.toLowerCase(), await h().request(method, url, form ? { key, form } : { key }));
    }
    const pixel = (await h().request('GET', '/api/v1/pixels', { key })).body.data[0];
    const space = (await h().request('GET', '/api/v1/spaces', { key })).body.data[0];
    const link = await h().request('POST', '/api/v1/links', {
      key,
      form: { url: 'https://example.com/l', pixels: [pixel.id], space: space.id },
    });
    check('/api/v1/links', 'post', link);
    check('/api/v1/links/{id}', 'get', await h().request('GET', `/api/v1/links/${link.body.data.id}`, { key }));
    check('/api/v1/links', 'get', await h().request('GET', '/api/v1/links', { key }));
    check('/api/v1/pixels/{id}', 'get', await h().request('GET', `/api/v1/pixels/${pixel.id}`, { key }));
    check(
      '/api/v1/pixels/{id}',
      'put',
      await h().request('PUT', `/api/v1/pixels/${pixel.id}`, { key, form: { name: 'Q' } }),
    );
    check(
      '/api/v1/spaces/{id}',
      'patch',
      await h().request('PATCH', `/api/v1/spaces/${space.id}`, { key, json: { color: 9 } }),
    );
    check('/api/v1/spaces/{id}', 'delete', await h().request('DELETE', `/api/v1/spaces/${space.id}`, { key }));
    check('/pixels/{id}/destroy', 'delete', await h().request('DELETE', `/pixels/${pixel.id}/destroy`, { key }));
    const domain = (await h().request('GET', '/api/v1/domains', { key })).body.data[0];
    check(
      '/api/v1/domains/{id}/verify',
      'post',
      await h().request('POST', `/api/v1/domains/${domain.id}/verify`, { key }),
    );
    h().dns.publishTxt(domain.verification.txt_name, domain.verification.token);
    check(
      '/api/v1/domains/{id}/verify',
      'post',
      await h().request('POST', `/api/v1/domains/${domain.id}/verify`, { key }),
    );
    check('/api/v1/account', 'get', await h().request('GET', '/api/v1/account'));
    check(
      '/api/v1/pixels',
      'post',
      await h().request('POST', '/api/v1/pixels', { key, body: 'x', headers: { 'content-type': 'text/plain' } }),
    );
  });

  test('GET /docs serves the interactive documentation page', async () => {
    const res = await h().request('GET', '/docs', { headers: { accept: 'text/html' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /<html/i);
    assert.match(res.text, /swagger/i);
    // A phone lays the page out at its own width, not a desktop's shrunk to a few pixels.
    assert.match(res.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
  });

  test('GET /health answers 200 {status: "ok"}', async () => {
    const res = await h().request('GET', '/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
  });
});
