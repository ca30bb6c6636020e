// Errors that Fastify or node:http raise before any route — the router's refusals (a path that
// cannot be decoded, a segment past the router's limit), a head too large or malformed, a
// content type nobody parses, a request that arrives while the server closes — reach clients in
// the contract's envelope `{"message": "...", "status": N}`, never in Fastify's own body (which
// echoed the path and named its error code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, startHarness, ENGINES, type Harness } from '../../support/harness.ts';
import { rawConnection, type RawResponse } from '../../support/raw-http.ts';

const portOf = (h: Harness) => Number(new URL(h.baseUrl).port);
const head = (method: string, path: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: short.test\r\n${extra}\r\n`;

async function rawAnswer(h: Harness, text: string): Promise<RawResponse> {
  const c = await rawConnection(portOf(h));
  try {
    await c.write(text);
    return (await c.responses(1))[0]!;
  } finally {
    c.close();
  }
}

function assertEnvelope(res: RawResponse, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.body.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  assert.deepEqual(JSON.parse(res.body), { message: JSON.parse(res.body).message, status }, what);
  assert.equal(typeof JSON.parse(res.body).message, 'string', what);
  assert.ok(!res.body.includes('FST_') && !res.body.includes('statusCode'), `${what}: Fastify's own body`);
}

onEachEngine('framework errors in the contract envelope', (h) => {
  test("a path the router cannot decode is a 400 envelope on the visitor's, the API's and the web app's paths", async () => {
    for (const path of [
      '/%zz',
      '/%E0%A4%A',
      '/abc%',
      '/%zz/+',
      '/api/v1/links/%zz',
      '/dashboard/%zz',
      '/links/%C0%AF/edit',
    ]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await rawAnswer(h(), head(method, path, method === 'POST' ? 'Content-Length: 0\r\n' : ''));
        assertEnvelope(res, 400, `${method} ${path}`);
        assert.ok(!res.body.includes(path), 'the path is echoed');
      }
    }
  });

  test('a segment past 255 characters is a 414 envelope on the API and the web app too', async () => {
    const long = 'x'.repeat(256);
    for (const path of [
      `/${long}`,
      `/api/v1/links/${long}`,
      `/api/v1/pixels/${long}`,
      `/links/${long}/edit`,
      `/stats/${long}`,
    ]) {
      assertEnvelope(await rawAnswer(h(), head('GET', path)), 414, path);
    }
  });

  test('a head past 16 KiB is a 431 envelope, whether the fast lane or node:http reads it', async () => {
    const big = `X-Big: ${'y'.repeat(20_000)}\r\n`;
    assertEnvelope(await rawAnswer(h(), head('GET', '/some-alias', big)), 431, 'a new connection');
    const c = await rawConnection(portOf(h()));
    await c.write(head('GET', '/health'));
    assert.equal((await c.responses(1))[0]!.status, 200);
    await c.write(head('GET', '/some-alias', big));
    const [refused] = await c.responses(1);
    c.close();
    assertEnvelope(refused!, 431, 'after a request node:http took');
  });

  test('a malformed head, and a body of a type nobody parses on a visitor route, are envelopes', async () => {
    assertEnvelope(
      await rawAnswer(h(), 'GET /x HTTP/1.1\r\nHost: short.test\r\nBad Header\r\n\r\n'),
      400,
      'a header line without a colon',
    );
    assertEnvelope(
      await rawAnswer(h(), head('POST', '/some-alias', 'Content-Type: text/xml\r\nContent-Length: 3\r\n') + 'abc'),
      415,
      'text/xml to /{alias}',
    );
    assertEnvelope(
      await rawAnswer(
        h(),
        head('POST', '/api/v1/links', 'Content-Type: application/json\r\nContent-Length: 3\r\n') + '{{{',
      ),
      401,
      'before the key',
    );
  });
});

for (const engine of ENGINES) {
  test(
    `a request that arrives while the server closes is a 503 envelope, not Fastify's body [${engine.name}]`,
    { skip: engine.skip ?? false },
    async () => {
      const h = await startHarness(engine.name);
      let closing: Promise<void> | null = null;
      try {
        const c = await rawConnection(portOf(h));
        // A request whose body is still coming holds the connection open through the close; the
        // next one, pipelined behind it, arrives once the server is closing.
        const routed = new Promise((resolve) => h.server.app.server.once('request', resolve));
        await c.write(
          head('POST', '/no-such-alias', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n') +
            'a=',
        );
        await routed;
        closing = h.server.app.close();
        await c.write(`1${head('GET', '/health')}`);
        const [first, second] = await c.responses(2);
        c.close();
        assert.equal(first!.status, 404, first!.body);
        assertEnvelope(second!, 503, 'while closing');
        assert.equal(second!.headers.connection, 'close');
      } finally {
        await closing;
        await h.close();
      }
    },
  );
}
