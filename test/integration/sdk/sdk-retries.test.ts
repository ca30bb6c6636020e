// The SDK's retries (packages/sdk/src/retry.ts) against a loopback server that answers as told:
// a 429 is sent again after its Retry-After, within a bounded count and wait; a 503 only for
// an idempotent method; nothing else.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Linkpix, LinkpixError, LinkpixRateLimitError } from '../../../packages/sdk/src/index.ts';

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

const LINK = { id: 1, alias: 'abc', url: 'https://example.com/' };

describe('SDK retries', () => {
  let server: Server;
  let url: string;
  /** What the server answers next, in order; the last one again once the rest are used. */
  let script: Scripted[] = [];
  let seen: { method: string; body: string }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', body });
        const next = (script.length > 1 ? script.shift() : script[0])!;
        res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        res.end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
  });

  const tooMany = (retryAfter: string): Scripted => ({
    status: 429,
    headers: { 'retry-after': retryAfter },
    body: { message: 'Too Many Attempts.', status: 429 },
  });

  test('a 429 is sent again, body and all, once its Retry-After has passed', async () => {
    script = [tooMany('1'), { status: 201, body: { data: LINK, status: 201 } }];
    const began = Date.now();
    const link = await new Linkpix({ url, apiKey: 'k' }).links.create({ url: 'https://example.com/' });
    assert.deepEqual(link, LINK);
    assert.ok(Date.now() - began >= 950, `waited ${Date.now() - began} ms, not the second asked`);
    assert.deepEqual(
      seen.map((s) => [s.method, JSON.parse(s.body)]),
      [
        ['POST', { url: 'https://example.com/' }],
        ['POST', { url: 'https://example.com/' }],
      ],
    );
  });

  test('past the retries, a LinkpixRateLimitError with the Retry-After', async () => {
    script = [tooMany('0')];
    await assert.rejects(new Linkpix({ url, apiKey: 'k', retries: 2 }).links.get(1), (error) => {
      assert.ok(error instanceof LinkpixRateLimitError);
      assert.equal(error.status, 429);
      assert.equal(error.retryAfter, 0);
      assert.deepEqual(error.body, { message: 'Too Many Attempts.', status: 429 });
      return true;
    });
    assert.equal(seen.length, 3, 'the first send and two more');
  });

  test('a wait past the bound is not waited: the error at once', async () => {
    script = [tooMany('120')];
    const began = Date.now();
    await assert.rejects(
      new Linkpix({ url, apiKey: 'k', retries: { retries: 5, maxWaitMs: 10_000 } }).links.get(1),
      (error) => error instanceof LinkpixRateLimitError && error.retryAfter === 120,
    );
    assert.equal(seen.length, 1);
    assert.ok(Date.now() - began < 5000);
  });

  test('retries: 0 sends once', async () => {
    script = [tooMany('0')];
    await assert.rejects(new Linkpix({ url, apiKey: 'k', retries: 0 }).links.get(1), LinkpixRateLimitError);
    assert.equal(seen.length, 1);
  });

  test('a 503 is sent again for a GET, never for a POST; other statuses never', async () => {
    const unavailable: Scripted = {
      status: 503,
      headers: { 'retry-after': '0' },
      body: { message: 'Service Unavailable.', status: 503 },
    };
    script = [unavailable, { status: 200, body: { data: LINK, status: 200 } }];
    assert.deepEqual(await new Linkpix({ url, apiKey: 'k' }).links.get(1), LINK);
    assert.equal(seen.length, 2);

    seen = [];
    script = [unavailable, { status: 201, body: { data: LINK, status: 201 } }];
    await assert.rejects(
      new Linkpix({ url, apiKey: 'k' }).links.create({ url: 'https://example.com/' }),
      (error) => error instanceof LinkpixError && error.status === 503,
    );
    assert.equal(seen.length, 1, 'a POST that may have been done is not sent twice');

    seen = [];
    script = [{ status: 500, body: { message: 'Server Error', status: 500 } }];
    await assert.rejects(new Linkpix({ url, apiKey: 'k' }).links.get(1), (e) => (e as LinkpixError).status === 500);
    assert.equal(seen.length, 1);
  });
});
