/**
 * Helpers shared by the links API tests (not a test file itself: the runner only picks
 * *.test.ts). Everything goes through the real HTTP server of the harness.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Harness, Reply, RequestOptions } from '../../support/harness.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let seq = 0;
export const unique = (prefix: string): string => `${prefix}${++seq}${randomBytes(3).toString('hex')}`;

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const NOT_FOUND = { message: 'Resource not found.', status: 404 };

/** Creates a link through the API and returns its record; the create must succeed. */
export async function makeLink(h: Harness, key: string, form: Record<string, unknown> | string = {}): Promise<Json> {
  const body = typeof form === 'string' ? form : { url: 'https://example.com/', ...form };
  const res = await h.request('POST', '/api/v1/links', { key, form: body });
  assert.equal(res.status, 201, `create failed: ${res.text}`);
  return res.body.data;
}

export async function makeSpace(h: Harness, key: string, name = unique('space')): Promise<Json> {
  const res = await h.request('POST', '/api/v1/spaces', { key, form: { name, color: 3 } });
  assert.equal(res.status, 201, `space create failed: ${res.text}`);
  return res.body.data;
}

export async function makeDomain(h: Harness, key: string, name = `${unique('go')}.example.com`): Promise<Json> {
  const res = await h.request('POST', '/api/v1/domains', { key, form: { name } });
  assert.equal(res.status, 201, `domain create failed: ${res.text}`);
  return res.body.data;
}

export async function makePixel(h: Harness, key: string, name = unique('px')): Promise<Json> {
  const res = await h.request('POST', '/api/v1/pixels', { key, form: { name, type: 'facebook', value: '1234567890' } });
  assert.equal(res.status, 201, `pixel create failed: ${res.text}`);
  return res.body.data;
}

/** GET a list and insist on a 200. */
export async function listLinks(h: Harness, key: string, query = ''): Promise<Json> {
  const res = await h.request('GET', `/api/v1/links${query ? `?${query}` : ''}`, { key });
  assert.equal(res.status, 200, `list failed: ${res.text}`);
  return res.body;
}

export async function linkTotal(h: Harness, key: string): Promise<number> {
  return (await listLinks(h, key)).meta.total;
}

/** Ids of every link the key sees with that query, in the order served. */
export async function idsOf(h: Harness, key: string, query = ''): Promise<number[]> {
  const body = await listLinks(h, key, `per_page=100${query ? `&${query}` : ''}`);
  return body.data.map((l: Json) => l.id);
}

/** A 422 that names each field (exactly, or a `field.` sub-path of it). */
export function assertInvalid(res: Reply, fields: string[]): void {
  assert.equal(res.status, 422, `expected 422, got ${res.status}: ${res.text}`);
  assert.equal(res.body.status, 422);
  assert.equal(typeof res.body.message, 'object', res.text);
  const named = Object.keys(res.body.message);
  for (const field of fields) {
    assert.ok(
      named.some((n) => n === field || n.startsWith(`${field}.`)),
      `"${field}" not named in ${res.text}`,
    );
    for (const [name, list] of Object.entries(res.body.message as Record<string, unknown>)) {
      if (name === field || name.startsWith(`${field}.`)) {
        assert.ok(Array.isArray(list) && list.length > 0 && list.every((m) => typeof m === 'string' && m.length > 0));
      }
    }
  }
}

/** POST a create that must fail with a 422 naming `fields`, and leave the account's links as they were. */
export async function createRefused(
  h: Harness,
  key: string,
  options: RequestOptions,
  fields: string[],
): Promise<Reply> {
  const before = await linkTotal(h, key);
  const res = await h.request('POST', '/api/v1/links', { key, ...options });
  assertInvalid(res, fields);
  assert.equal(await linkTotal(h, key), before, 'a refused create wrote a link');
  return res;
}

/** PUT an update that must fail with a 422 naming `fields`, and leave the link as it was. */
export async function updateRefused(
  h: Harness,
  key: string,
  id: number,
  options: RequestOptions,
  fields: string[],
): Promise<Reply> {
  const before = (await h.request('GET', `/api/v1/links/${id}`, { key })).body.data;
  const res = await h.request('PUT', `/api/v1/links/${id}`, { key, ...options });
  assertInvalid(res, fields);
  const after = (await h.request('GET', `/api/v1/links/${id}`, { key })).body.data;
  assert.deepEqual(after, before, 'a refused update changed the link');
  return res;
}

export function assertNotFound(res: Reply): void {
  assert.equal(res.status, 404, res.text);
  assert.deepEqual(res.body, NOT_FOUND);
}
