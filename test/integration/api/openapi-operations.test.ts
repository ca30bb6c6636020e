// What every operation of the served OpenAPI document carries beyond its schemas
// (docs/design/openapi.md): a unique camelCase operationId, a summary of at most 60 characters,
// one of the document's tags, a 2xx example and, where it takes a body, a request example, each
// valid against the operation's own schema, and its security as the route policy enforces it.
// The document does not depend on the engine, so one is read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
// Ajv comes with Fastify (it validates every request); here it checks the examples.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startHarness, type Harness } from '../../support/harness.ts';
import { OPENAPI_TAGS } from '../../../src/adapters/http/openapi-tags.ts';
import { OPERATION_DOCS } from '../../../src/adapters/http/openapi-examples/index.ts';
import { policyOfRoute } from '../../../src/adapters/http/route-actions.ts';
import { POLICY } from '../../../src/core/workspaces/policy.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let h: Harness;
let doc: Json;
before(async () => {
  h = await startHarness('sqlite');
  const res = await h.request('GET', '/api/openapi.json');
  assert.equal(res.status, 200);
  doc = res.body;
});
after(() => h.close());

function operations(): [string, string, Json][] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [path, m, item[m]] as [string, string, Json]),
  );
}

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('email', /^[^@\s]+@[^@\s]+$/);
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:/i);
  ajv.addFormat('binary', /./s);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  return (pointer: string[], example: unknown, where: string) => {
    const ref = pointer.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    const validate = ajv.getSchema(`openapi.json#/${ref}`);
    assert.ok(validate, `${where}: no schema at ${ref}`);
    assert.ok(validate(example), `${where}: the example does not fit: ${ajv.errorsText(validate.errors)}`);
  };
}

test('the document lists its tags, each with a description, and every operation names one', () => {
  assert.deepEqual(
    doc.tags.map((t: Json) => t.name),
    OPENAPI_TAGS.map((t) => t.name),
  );
  for (const tag of doc.tags) assert.ok(tag.description.length > 0, tag.name);
  for (const [path, method, op] of operations()) {
    assert.equal(op.tags?.length, 1, `${method} ${path}: one tag`);
    assert.ok(
      OPENAPI_TAGS.some((t) => t.name === op.tags[0]),
      `${method} ${path}: unknown tag ${op.tags[0]}`,
    );
  }
});

test('every operation has a unique camelCase operationId and a summary of at most 60 characters', () => {
  const seen = new Map<string, string>();
  for (const [path, method, op] of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    assert.equal(typeof op.operationId, 'string', `${where}: no operationId (add it to openapi-examples/)`);
    assert.match(op.operationId, /^[a-z][a-zA-Z0-9]*$/, `${where}: operationId is camelCase`);
    assert.equal(seen.get(op.operationId), undefined, `${where}: operationId ${op.operationId} is taken`);
    seen.set(op.operationId, where);
    assert.ok(op.summary.length <= 60, `${where}: summary longer than 60: ${op.summary}`);
    assert.match(op.summary, /^[A-Z][a-z]+ /, `${where}: summary starts with its verb`);
    assert.doesNotMatch(op.summary, /\.$/, `${where}: summary without a full stop`);
  }
});

test('every example fits its own schema: the 2xx answer, and the body where there is one', () => {
  const check = validator();
  for (const [path, method, op] of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    const success = Object.keys(op.responses)
      .filter((s) => /^2\d\d$/.test(s))
      .sort()[0];
    assert.ok(success, `${where}: a 2xx answer`);
    // `example`, or named `examples` where one status answers more than one shape.
    const examples = Object.entries((op.responses[success].content ?? {}) as Record<string, Json>).flatMap(
      ([type, media]) =>
        media.example !== undefined
          ? [[type, media.example, '']]
          : Object.entries((media.examples ?? {}) as Record<string, Json>).map(([name, e]) => [
              type,
              e.value,
              ` ${name}`,
            ]),
    );
    assert.ok(examples.length > 0, `${where}: a ${success} example`);
    for (const [type, example, name] of examples)
      check(
        ['paths', path, method, 'responses', success, 'content', type, 'schema'],
        example,
        `${where} ${success}${name}`,
      );
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
      assert.notEqual(media.example, undefined, `${where}: a ${type} body example`);
      check(['paths', path, method, 'requestBody', 'content', type, 'schema'], media.example, `${where} body`);
    }
  }
});

test("every operation's security is its route's policy: scopes, action and role", () => {
  for (const [path, method, op] of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    const { action } = policyOfRoute(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'));
    const scope = action === null ? null : POLICY[action].scope;
    const scopes = scope === null ? [] : [scope];
    assert.deepEqual(op.security, [{ bearerAuth: scopes }], `${where}: security`);
    assert.deepEqual(op['x-linkpix-scope'], scopes, `${where}: x-linkpix-scope`);
    assert.equal(op['x-linkpix-action'], action, `${where}: x-linkpix-action`);
    assert.equal(op['x-linkpix-role'], action === null ? null : POLICY[action].role, `${where}: x-linkpix-role`);
  }
  const link = doc.paths['/api/v1/links'].post;
  assert.deepEqual(link.security, [{ bearerAuth: ['links:write'] }]);
  assert.equal(link['x-linkpix-role'], 'editor');
});

test('every entry of openapi-examples/ is an operation of the document', () => {
  const documented = new Set(operations().map(([path, method]) => `${method.toUpperCase()} ${path}`));
  for (const key of OPERATION_DOCS.keys()) assert.ok(documented.has(key), `${key}: no such operation`);
});
