// The fast lane (src/adapters/http/fast-lane/) in the real server: plain visits answered on the
// socket give node:http's answer and record one click each, pipelined or not; a connection that
// turns to the API goes on through node:http; with HTTP_FAST_LANE=false, node:http answers all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, startHarness, type Harness } from '../../support/harness.ts';
import { rawConnection, type RawResponse } from '../../support/raw-http.ts';
import { BROWSER, clickRows, makeLink, UA, visit } from './redirect-support.ts';

const portOf = (h: Harness) => Number(new URL(h.baseUrl).port);
const get = (path: string, headers: Record<string, string> = {}) =>
  `GET ${path} HTTP/1.1\r\n${Object.entries({ Host: 'short.test', 'User-Agent': BROWSER, ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

/** An answer without its Date, which changes by the second. */
const dateless = (r: RawResponse) => r.raw.replace(/\r\nDate: [^\r]+/, '');

onEachEngine('redirect: the fast lane', (h) => {
  test('pipelined visits on one connection: the answers node:http gives, in order, one click each', async () => {
    const { key } = await h().account();
    const plain = await makeLink(h(), key, { url: 'https://example.com/p?a=1#top' });
    const byCountry = await makeLink(h(), key, { url: 'https://example.com/', target_type: 1, country: [{ key: 'US', value: 'https://example.com/us' }] });
    // The first visits read the links through Fastify and cache them.
    const routed = await visit(h(), `/${plain.alias}?utm=x`);
    await visit(h(), `/${byCountry.alias}`);
    const c = await rawConnection(portOf(h()));
    await c.write(get(`/${plain.alias}?utm=x`) + get(`/${byCountry.alias}`) + get(`/${plain.alias}?utm=x`, { 'User-Agent': UA.googlebot }));
    const answers = await c.responses(3);
    c.close();
    assert.deepEqual(
      answers.map((a) => a.headers.location),
      [routed.location, 'https://example.com/', 'https://example.com/p?a=1&utm=x#top'],
    );
    assert.equal(dateless(answers[0]!), dateless(answers[2]!));
    assert.deepEqual(Object.keys(answers[0]!.headers), ['location', 'cache-control', 'content-length', 'date', 'connection', 'keep-alive']);
    const rows = await clickRows(h(), plain.id);
    assert.deepEqual(
      rows.map((r) => Number(r.is_bot)),
      [0, 0, 1],
    );
    assert.equal((await clickRows(h(), byCountry.id)).length, 2);
  });

  test('a connection that turns to the API goes on through node:http, visits included', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    await visit(h(), `/${link.alias}`);
    const c = await rawConnection(portOf(h()));
    await c.write(get(`/${link.alias}`));
    assert.equal((await c.responses(1))[0]!.status, 302);
    const form = 'url=https%3A%2F%2Fexample.com%2Fnew';
    await c.write(
      `POST /api/v1/links HTTP/1.1\r\nHost: short.test\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}${get(`/${link.alias}`)}`,
    );
    const [created, again] = await c.responses(2);
    c.close();
    assert.equal(created!.status, 201, created!.body);
    assert.equal(JSON.parse(created!.body).data.url, 'https://example.com/new');
    assert.equal(again!.status, 302);
    assert.equal((await clickRows(h(), link.id)).length, 3);
  });

  test('HEAD in the lane records nothing; HTTP/1.0 and Connection: close are left to node:http and answered as before', async () => {
    const { key } = await h().account();
    const link = await makeLink(h(), key);
    await visit(h(), `/${link.alias}`);
    const c = await rawConnection(portOf(h()));
    await c.write(`HEAD /${link.alias} HTTP/1.1\r\nHost: short.test\r\n\r\n`);
    assert.equal((await c.responses(1))[0]!.status, 302);
    await c.write(`GET /${link.alias} HTTP/1.0\r\nHost: short.test\r\nUser-Agent: ${BROWSER}\r\n\r\n`);
    assert.equal((await c.responses(1))[0]!.status, 302);
    await c.closed;
    const closing = await rawConnection(portOf(h()));
    await closing.write(get(`/${link.alias}`, { Connection: 'close' }));
    assert.equal((await closing.responses(1))[0]!.headers.connection, 'close');
    await closing.closed;
    assert.equal((await clickRows(h(), link.id)).length, 3, 'the first visit, HTTP/1.0 and the closing one; HEAD records none');
  });
});

onEachEngine(
  'redirect: without the fast lane (HTTP_FAST_LANE=false)',
  (h) => {
    test('node:http answers pipelined visits the same way', async () => {
      const { key } = await h().account();
      const link = await makeLink(h(), key, { url: 'https://example.com/p' });
      await visit(h(), `/${link.alias}`);
      const c = await rawConnection(portOf(h()));
      await c.write(get(`/${link.alias}`) + get(`/${link.alias}`));
      const answers = await c.responses(2);
      c.close();
      assert.deepEqual(
        answers.map((a) => a.headers.location),
        ['https://example.com/p', 'https://example.com/p'],
      );
      assert.deepEqual(Object.keys(answers[0]!.headers), ['location', 'cache-control', 'content-length', 'date', 'connection', 'keep-alive']);
      assert.equal((await clickRows(h(), link.id)).length, 3);
    });
  },
  { env: { HTTP_FAST_LANE: 'false' } },
);

test('a server with an idle connection in the lane stops at once', async () => {
  const h = await startHarness('sqlite');
  const { key } = await h.account();
  const link = await makeLink(h, key);
  await visit(h, `/${link.alias}`);
  const c = await rawConnection(portOf(h));
  await c.write(get(`/${link.alias}`));
  assert.equal((await c.responses(1))[0]!.status, 302);
  // An idle lane connection that held the stop would hold it for good (node:http's close() does
  // not know it), so the bound only tells "stopped" from "held"; it is loose because the stop also
  // flushes clicks and closes the database on a machine other test tiers share.
  const since = Date.now();
  const held = new Promise<'held'>((resolve) => setTimeout(resolve, 15_000, 'held').unref());
  assert.equal(await Promise.race([h.close().then(() => 'stopped' as const), held]), 'stopped', `the stop took over ${Date.now() - since} ms`);
  await c.closed;
});

test("the shutdown deadline's app.closeAllConnections() closes lane connections too, node:http's as well", async () => {
  const h = await startHarness('sqlite');
  try {
    const { key } = await h.account();
    const link = await makeLink(h, key);
    await visit(h, `/${link.alias}`);
    const inLane = await rawConnection(portOf(h));
    await inLane.write(get(`/${link.alias}`));
    assert.equal((await inLane.responses(1))[0]!.status, 302);
    const onNode = await rawConnection(portOf(h));
    await onNode.write(`GET /${link.alias} HTTP/1.0\r\nHost: short.test\r\nConnection: keep-alive\r\nUser-Agent: ${BROWSER}\r\n\r\n`);
    assert.equal((await onNode.responses(1))[0]!.status, 302);
    h.server.app.closeAllConnections();
    await Promise.all([inLane.closed, onNode.closed]);
  } finally {
    await h.close();
  }
});
