// Keep-alive connections in the real server (docs/design/visit.md): pipelined visits answered
// before Fastify give the answers Fastify's route gives and record one click each; a connection
// that turns to the API and back stays in order; an idle connection, or one that has sent nothing
// yet, does not hold a stop.
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

onEachEngine('redirect: keep-alive connections', (h) => {
  test('pipelined visits on one connection: the answers node:http gives, in order, one click each', async () => {
    const { key } = await h().account();
    const plain = await makeLink(h(), key, { url: 'https://example.com/p?a=1#top' });
    const byCountry = await makeLink(h(), key, {
      url: 'https://example.com/',
      target_type: 1,
      country: [{ key: 'US', value: 'https://example.com/us' }],
    });
    // The first visits read the links through Fastify and cache them.
    const routed = await visit(h(), `/${plain.alias}?utm=x`);
    await visit(h(), `/${byCountry.alias}`);
    const c = await rawConnection(portOf(h()));
    await c.write(
      get(`/${plain.alias}?utm=x`) +
        get(`/${byCountry.alias}`) +
        get(`/${plain.alias}?utm=x`, { 'User-Agent': UA.googlebot }),
    );
    const answers = await c.responses(3);
    c.close();
    assert.deepEqual(
      answers.map((a) => a.headers.location),
      [routed.location, 'https://example.com/', 'https://example.com/p?a=1&utm=x#top'],
    );
    assert.equal(dateless(answers[0]!), dateless(answers[2]!));
    assert.deepEqual(Object.keys(answers[0]!.headers), [
      'location',
      'cache-control',
      'content-length',
      'date',
      'connection',
      'keep-alive',
    ]);
    const rows = await clickRows(h(), plain.id);
    assert.deepEqual(
      rows.map((r) => Number(r.is_bot)),
      [0, 0, 1],
    );
    assert.equal((await clickRows(h(), byCountry.id)).length, 2);
  });

  test('a connection that turns to the API and back is answered in order, visits included', async () => {
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

  test('HEAD records nothing; HTTP/1.0 and Connection: close are answered and close', async () => {
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
    assert.equal(
      (await clickRows(h(), link.id)).length,
      3,
      'the first visit, HTTP/1.0 and the closing one; HEAD records none',
    );
  });
});

test('a server with an idle keep-alive connection stops at once', async () => {
  const h = await startHarness('sqlite');
  const { key } = await h.account();
  const link = await makeLink(h, key);
  await visit(h, `/${link.alias}`);
  const c = await rawConnection(portOf(h));
  await c.write(get(`/${link.alias}`));
  assert.equal((await c.responses(1))[0]!.status, 302);
  // An idle connection that held the stop would hold it until keepAliveTimeout, so the bound only
  // tells "stopped" from "held"; it is loose because the stop also flushes clicks and closes the
  // database on a machine other test tiers share.
  const since = Date.now();
  const held = new Promise<'held'>((resolve) => setTimeout(resolve, 15_000, 'held').unref());
  assert.equal(
    await Promise.race([h.close().then(() => 'stopped' as const), held]),
    'stopped',
    `the stop took over ${Date.now() - since} ms`,
  );
  await c.closed;
});

test('a connection that has not sent a request yet does not hold a stop', async () => {
  const h = await startHarness('sqlite');
  // A client's spare connection: open, nothing sent. node:http would keep it until the head timeout.
  const c = await rawConnection(portOf(h));
  const since = Date.now();
  const held = new Promise<'held'>((resolve) => setTimeout(resolve, 15_000, 'held').unref());
  assert.equal(
    await Promise.race([h.close().then(() => 'stopped' as const), held]),
    'stopped',
    `the stop took over ${Date.now() - since} ms`,
  );
  await c.closed;
});
