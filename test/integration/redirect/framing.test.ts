// HTTP framing on node:http, which parses every request (docs/design/visit.md), from issue 14: a body over the limit gets its 413 and a lingering close, a second Host and a
// fragment are refused, a slow request is cut off, and nothing after `Connection: close` is read.
// SQLite only: framing is the same whatever stores the links.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../support/harness.ts';
import { exchange } from '../../support/raw-exchange.ts';
import { makeLink, visit } from './redirect-support.ts';

const TIMEOUT_MS = 1500;
const portOf = (h: Harness) => Number(new URL(h.baseUrl).port);
const statusOf = (received: string) => Number(received.slice(9, 12));
const answers = (received: string) => received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

describe('HTTP framing', () => {
  let h: Harness;
  let key: string;
  let alias: string;
  before(async () => {
    h = await startHarness('sqlite', { env: { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
    key = (await h.account()).key;
    alias = (await makeLink(h, key, { url: 'https://example.com/dest' })).alias;
    await visit(h, `/${alias}`); // cached: the fast path would take a plain visit
  });
  after(async () => {
    await h.close();
  });

  test('a 6 MB body sent at once without Expect: the 413, then the server reads on and closes with a FIN, every time', async () => {
    const body = Buffer.alloc(6_000_000, 'a');
    const head =
      `POST /api/v1/links HTTP/1.1\r\nHost: short.test\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
    for (let run = 0; run < 3; run++) {
      const x = await exchange(portOf(h), Buffer.concat([Buffer.from(head), body]));
      assert.equal(
        x.writeError,
        undefined,
        `run ${run}: the body was not read (${x.writeError}); got ${JSON.stringify(x.received.slice(0, 40))}`,
      );
      assert.equal(x.closed, 'end', `run ${run}`);
      assert.equal(statusOf(x.received), 413, x.received);
      assert.match(x.received, /\r\nconnection: close\r\n/i);
      assert.ok(x.received.endsWith('{"message":"Payload Too Large.","status":413}'), x.received);
    }
  });

  test('the lingering is bounded: a client that sends no more is closed after a short while, one that sends on after some MiB', async () => {
    const head =
      `POST /api/v1/links HTTP/1.1\r\nHost: short.test\r\nAuthorization: Bearer ${key}\r\n` +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 6000000\r\n\r\n';
    const quiet = await exchange(portOf(h), `${head}url=x`, { waitMs: 6000 });
    assert.equal(statusOf(quiet.received), 413);
    assert.notEqual(quiet.closed, 'open', 'still open after 6 s');
    assert.ok(quiet.ms < TIMEOUT_MS + 3000, `closed after ${quiet.ms} ms`);

    const endless = Buffer.concat([
      Buffer.from(head.replace('6000000', '200000000')),
      Buffer.alloc(40 * 1024 * 1024, 'a'),
    ]);
    const flood = await exchange(portOf(h), endless, { perWrite: 1024 * 1024, waitMs: 10_000, stopOnEnd: true });
    assert.equal(statusOf(flood.received), 413);
    assert.notEqual(flood.closed, 'open', 'still reading after 10 s');
    assert.ok(flood.written < endless.length, 'the server read all 40 MiB before it closed');
  });

  test('two Host fields are a 400 (RFC 9112 §3.2), whichever comes first, for a link the fast path would serve', async () => {
    for (const hosts of [
      'Host: short.test\r\nHost: other.test',
      'Host: other.test\r\nhost: short.test',
      'Host: short.test\r\nHOST: short.test',
    ]) {
      const x = await exchange(portOf(h), `GET /${alias} HTTP/1.1\r\n${hosts}\r\n\r\n`);
      assert.equal(statusOf(x.received), 400, `${hosts}: ${x.received}`);
      assert.equal(answers(x.received).length, 1);
      assert.equal(x.closed, 'end');
    }
    const one = await exchange(portOf(h), `GET /${alias} HTTP/1.1\r\nHost: short.test\r\nConnection: close\r\n\r\n`);
    assert.equal(statusOf(one.received), 302, 'one Host is still served');
  });

  test('a fragment in the request target is a 400, never part of the destination', async () => {
    for (const target of [`/${alias}?x=1#frag`, `/${alias}#frag`, `/${alias}?x=#`]) {
      for (const method of ['GET', 'HEAD']) {
        const x = await exchange(portOf(h), `${method} ${target} HTTP/1.1\r\nHost: short.test\r\n\r\n`);
        assert.equal(statusOf(x.received), 400, `${method} ${target}: ${x.received}`);
        assert.doesNotMatch(x.received, /location:/i);
      }
    }
  });

  test('a request that arrives too slowly is answered 408 and closed after REQUEST_TIMEOUT_MS, body or head', async () => {
    const slowBody = exchange(
      portOf(h),
      `POST /${alias} HTTP/1.1\r\nHost: short.test\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n${'p'.repeat(40)}`,
      { perWrite: 1, delayMs: 100, waitMs: 8000 },
    );
    const slowHead = exchange(
      portOf(h),
      `GET /${alias} HTTP/1.1\r\nHost: short.test\r\nUser-Agent: ${'x'.repeat(200)}\r\n\r\n`,
      {
        perWrite: 1,
        delayMs: 20,
        waitMs: 8000,
      },
    );
    for (const [what, x] of Object.entries({ body: await slowBody, head: await slowHead })) {
      assert.notEqual(x.closed, 'open', `${what}: still open after 8 s`);
      assert.equal(statusOf(x.received), 408, x.received);
      assert.ok(x.ms >= TIMEOUT_MS - 100 && x.ms < TIMEOUT_MS + 3000, `closed after ${x.ms} ms`);
    }
  });

  test('after Connection: close, nothing more is read: one answer, then the close, and a pipelined write never runs', async () => {
    const create = 'url=https%3A%2F%2Fexample.com%2Fsmuggled';
    const second =
      `POST /api/v1/links HTTP/1.1\r\nHost: short.test\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${create.length}\r\n\r\n${create}`;
    for (const first of [
      `GET /${alias} HTTP/1.1\r\nHost: short.test\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc`,
      `GET /${alias} HTTP/1.1\r\nHost: short.test\r\nConnection: close\r\n\r\n`,
      `GET /hello HTTP/1.1\r\nHost: short.test\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc`,
    ]) {
      for (const perWrite of [undefined, 7]) {
        const x = await exchange(portOf(h), first + second, { perWrite, stopOnEnd: true });
        assert.equal(answers(x.received).length, 1, `${JSON.stringify(first)} by ${perWrite}: ${x.received}`);
        assert.equal(statusOf(x.received), first.includes('/hello') ? 404 : 302);
        // Written seven bytes at a time, the client may still be writing when the server closes.
        assert.equal(x.closed, perWrite === undefined ? 'end' : x.closed === 'open' ? 'closed' : x.closed);
      }
    }
    const list = await h.request('GET', '/api/v1/links?search=smuggled', { key });
    assert.equal(list.body.data.length, 0, 'the request after Connection: close was run');
  });
});
