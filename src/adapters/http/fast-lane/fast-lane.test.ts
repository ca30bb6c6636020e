// The fast lane in front of a real node:http server, with a stand-in for the redirect: what it
// answers itself, what it hands to node:http and how, and how its connections end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawConnection } from '../../../../test/support/raw-http.ts';
import type { VisitHead } from '../redirect/fast-redirect.ts';
import type { Answer } from '../redirect/respond.ts';
import { FastLane } from './fast-lane.ts';

interface Setup {
  server: Server;
  lane: FastLane;
  port: number;
  /** What node:http itself was asked, in order. */
  toNode: Array<{ method: string; url: string; body: string }>;
  seen: VisitHead[];
  errors: unknown[];
}

type Visit = (req: VisitHead) => Answer | Promise<Answer> | null;

/** /go… is the lane's (a redirect to the path's rest); anything else is node:http's. */
const redirectGo: Visit = (req) => (req.url!.startsWith('/go') ? { kind: 'redirect', status: 302, location: `https://example.com${req.url!.slice(3)}` } : null);

async function setup(visit: Visit = redirectGo, keepAliveTimeoutMs = 5000): Promise<Setup> {
  const toNode: Setup['toNode'] = [];
  const seen: VisitHead[] = [];
  const errors: unknown[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      toNode.push({ method: req.method!, url: req.url!, body });
      res.writeHead(200, { 'x-served-by': 'node', 'content-length': '2' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  const lane = new FastLane({ visit: (req) => (seen.push(req), visit(req)), keepAliveTimeoutMs, onError: (e) => void errors.push(e) });
  lane.install(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, lane, port, toNode, seen, errors };
}

/** Runs a test against a fresh server with the lane, closed (connections and all) whatever happens. */
async function withLane(visit: Visit, run: (s: Setup) => Promise<void>, keepAliveTimeoutMs?: number): Promise<void> {
  const s = await setup(visit, keepAliveTimeoutMs);
  try {
    await run(s);
  } finally {
    s.lane.destroyAll();
    s.server.closeAllConnections();
    s.server.close();
  }
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: short.test\r\nUser-Agent: t\r\n${extra}\r\n`;

test('visits are answered on the socket, as node:http would frame them, and pipelined ones in order', async () => {
  await withLane(redirectGo, async (s) => {
    const c = await rawConnection(s.port);
    await c.write(get('/go/1') + get('/go/2') + get('/go/3'));
    const answers = await c.responses(3);
    assert.deepEqual(
      answers.map((a) => [a.status, a.headers.location]),
      [
        [302, 'https://example.com/1'],
        [302, 'https://example.com/2'],
        [302, 'https://example.com/3'],
      ],
    );
    assert.deepEqual(Object.keys(answers[0]!.headers), ['location', 'cache-control', 'content-length', 'date', 'connection', 'keep-alive']);
    assert.equal(answers[0]!.headers['keep-alive'], 'timeout=5');
    assert.match(answers[0]!.headers.date!, /^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/);
    assert.deepEqual(s.toNode, []);
    // The stand-in saw the lane's reading of the head, and the socket for the client address.
    assert.equal(s.seen[0]!.headers.host, 'short.test');
    assert.equal(s.seen[0]!.socket.remoteAddress, '127.0.0.1');
    c.close();
  });
});

test('the first request the lane does not take hands the connection to node:http, bytes and all', async () => {
  await withLane(redirectGo, async (s) => {
    const c = await rawConnection(s.port);
    await c.write(get('/go/1'));
    await c.responses(1);
    // A POST with a body, pipelined with a visit: node:http gets both, in order.
    await c.write('POST /api HTTP/1.1\r\nHost: short.test\r\nContent-Length: 5\r\n\r\nhello' + get('/go/2'));
    const [post, next] = await c.responses(2);
    assert.equal(post!.headers['x-served-by'], 'node');
    assert.equal(next!.headers['x-served-by'], 'node', 'the connection stays with node:http');
    assert.deepEqual(s.toNode, [
      { method: 'POST', url: '/api', body: 'hello' },
      { method: 'GET', url: '/go/2', body: '' },
    ]);
    c.close();
  });
});

test('a head split across packets, an HTTP/1.0 request and a visit the stand-in declines go to node:http', async () => {
  await withLane(redirectGo, async (s) => {
    const split = await rawConnection(s.port);
    await split.write('GET /go/1 HTTP/1.1\r\nHo');
    await new Promise((r) => setTimeout(r, 30));
    await split.write('st: short.test\r\n\r\n');
    assert.equal((await split.responses(1))[0]!.headers['x-served-by'], 'node');
    const old = await rawConnection(s.port);
    await old.write('GET /go/1 HTTP/1.0\r\nHost: short.test\r\n\r\n');
    assert.equal((await old.responses(1))[0]!.headers['x-served-by'], 'node');
    const declined = await rawConnection(s.port);
    await declined.write(get('/elsewhere'));
    assert.equal((await declined.responses(1))[0]!.headers['x-served-by'], 'node');
    assert.deepEqual(
      s.toNode.map((r) => r.url),
      ['/go/1', '/go/1', '/elsewhere'],
    );
    for (const c of [split, old, declined]) c.close();
  });
});

test('answers awaited from a shared store still go out in the order asked', async () => {
  const delays: Record<string, number> = { '/go/slow': 80, '/go/fast': 0 };
  const delayed: Visit = (req) => {
    const answer = redirectGo(req)!;
    return new Promise((resolve) => setTimeout(() => resolve(answer), delays[req.url!] ?? 10));
  };
  await withLane(delayed, async (s) => {
    const c = await rawConnection(s.port);
    await c.write(get('/go/slow') + get('/go/fast') + get('/go/x'));
    const answers = await c.responses(3);
    assert.deepEqual(
      answers.map((a) => a.headers.location),
      ['https://example.com/slow', 'https://example.com/fast', 'https://example.com/x'],
    );
    c.close();
  });
});

test('bytes a connection keeps while it waits, or hands to node:http, are its own while others read', async () => {
  // Connection A's second and third requests sit behind an awaited first one, and its fourth
  // behind a request node:http takes; other connections' reads land in the same buffer meanwhile.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const visit: Visit = (req) => (req.url === '/go/held' ? held.then(() => redirectGo(req)!) : redirectGo(req));
  await withLane(visit, async (s) => {
    const a = await rawConnection(s.port);
    await a.write(get('/go/held') + get('/go/a2') + get('/node/a3') + get('/go/a4'));
    await new Promise((r) => setTimeout(r, 20));
    const others = await Promise.all([1, 2, 3].map(() => rawConnection(s.port)));
    for (const [i, c] of others.entries()) await c.write(get(`/go/other-${i}-${'x'.repeat(200)}`) + get(`/node/other-${i}`));
    for (const [i, c] of others.entries()) {
      const [lane, node] = await c.responses(2);
      assert.equal(lane!.headers.location, `https://example.com/other-${i}-${'x'.repeat(200)}`);
      assert.equal(node!.headers['x-served-by'], 'node');
    }
    release();
    const answers = await a.responses(4);
    assert.deepEqual(
      answers.map((r) => r.headers.location ?? r.headers['x-served-by']),
      ['https://example.com/held', 'https://example.com/a2', 'node', 'node'],
    );
    assert.deepEqual(
      s.toNode.map((r) => r.url).filter((u) => u.startsWith('/node/a') || u === '/go/a4'),
      ['/node/a3', '/go/a4'],
    );
    for (const c of [a, ...others]) c.close();
  });
});

test("a visit that fails answers node:http's 500 envelope and the connection goes on", async () => {
  let calls = 0;
  const failing: Visit = (req) => {
    calls++;
    if (calls === 1) throw new Error('broken');
    if (calls === 2) return Promise.reject(new Error('redis down'));
    return redirectGo(req);
  };
  await withLane(failing, async (s) => {
    const c = await rawConnection(s.port);
    await c.write(get('/go/1') + get('/go/2') + get('/go/3'));
    const [a, b, ok] = await c.responses(3);
    for (const failed of [a!, b!]) {
      assert.equal(failed.status, 500);
      assert.deepEqual(JSON.parse(failed.body), { message: 'Server Error', status: 500 });
    }
    assert.equal(ok!.status, 302);
    assert.equal(s.errors.length, 2);
    c.close();
  });
});

test('an idle connection is closed after the keep-alive timeout', async () => {
  await withLane(
    redirectGo,
    async (s) => {
      const c = await rawConnection(s.port);
      await c.write(get('/go/1'));
      await c.responses(1);
      const since = Date.now();
      await c.closed;
      assert.ok(Date.now() - since >= 800, 'closed too early');
    },
    1000,
  );
});

test('a client that half-closes gets its answers, then the end of the connection', async () => {
  await withLane(redirectGo, async (s) => {
    const c = await rawConnection(s.port);
    await c.write(get('/go/1') + get('/go/2'));
    c.socket.end();
    assert.equal((await c.responses(2)).length, 2);
    await c.closed;
  });
});

test('closing: idle connections are closed, a visit awaiting its answer gets it, then node:http has the rest', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const s = await setup(async (req) => {
    if (req.url === '/go/held') await held;
    return redirectGo(req)!;
  });
  const idle = await rawConnection(s.port);
  await idle.write(get('/go/1'));
  await idle.responses(1);
  const busy = await rawConnection(s.port);
  await busy.write(get('/go/held'));
  await new Promise((r) => setTimeout(r, 20));
  s.lane.close();
  const closed = new Promise((resolve) => s.server.close(resolve));
  await idle.closed;
  release();
  assert.equal((await busy.responses(1))[0]!.headers.location, 'https://example.com/held');
  await busy.closed;
  await closed;
});

test("destroyAll closes lane connections, idle or awaiting an answer, which node:http's closeAllConnections does not know", async () => {
  const s = await setup((req) => (req.url === '/go/held' ? new Promise<Answer>(() => {}) : redirectGo(req)));
  const idle = await rawConnection(s.port);
  await idle.write(get('/go/1'));
  await idle.responses(1);
  const busy = await rawConnection(s.port);
  await busy.write(get('/go/held'));
  await new Promise((r) => setTimeout(r, 20));
  s.server.closeAllConnections();
  s.lane.destroyAll();
  await Promise.all([idle.closed, busy.closed]);
  await new Promise((resolve) => s.server.close(resolve));
});
