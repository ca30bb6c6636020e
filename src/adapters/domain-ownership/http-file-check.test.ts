import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { verificationOf } from '../../core/domains/verification.ts';
import { HttpFileCheck } from './http-file-check.ts';

// A local listener stands in for http://<name>/: the injected lookup sends the name to
// 127.0.0.1 and the port override replaces 80. No real DNS or network.

const target = verificationOf({ name: 'go.example.com', verificationToken: 'tok_0123456789abcdefghijkl' });

async function serve(handler: http.RequestListener) {
  const seen: { host: string | undefined; path: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ host: req.headers.host, path: req.url });
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const toLoopback: LookupFunction = (_name, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

const check = (port: number, extra: Partial<ConstructorParameters<typeof HttpFileCheck>[0]> = {}) =>
  new HttpFileCheck({ allowPrivate: true, timeoutMs: 1000, lookup: toLoopback, port, ...extra });

test('the file whose body is the token proves control; the request names the domain', async () => {
  const server = await serve((_req, res) => res.end(`${target.token}\n`));
  try {
    assert.deepEqual(await check(server.port).check(target), { found: true });
    assert.deepEqual(server.seen, [
      { host: `go.example.com:${server.port}`, path: `/.well-known/linkpix/${target.token}` },
    ]);
  } finally {
    await server.close();
  }
});

test('a missing file, another body or an oversized one is not a proof', async () => {
  const bodies = [
    [404, target.token],
    [200, 'something else'],
    [200, `${target.token}${' '.repeat(2000)}`],
  ] as const;
  for (const [status, body] of bodies) {
    const server = await serve((_req, res) => {
      res.statusCode = status;
      res.end(body);
    });
    try {
      const result = await check(server.port).check(target);
      assert.equal(result.found, false, `${status} ${body.slice(0, 20)}`);
    } finally {
      await server.close();
    }
  }
});

test('a redirect (to https, say) is followed a few times, and no more', async () => {
  const server = await serve((req, res) => {
    if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : `/.well-known/linkpix/moved` }).end();
    } else if (req.url === '/.well-known/linkpix/moved') res.end(target.token);
    else res.writeHead(301, { location: '/hop/1' }).end();
  });
  try {
    assert.deepEqual(await check(server.port).check(target), { found: true });
  } finally {
    await server.close();
  }
  const loop = await serve((_req, res) => res.writeHead(302, { location: '/again' }).end());
  try {
    assert.deepEqual(await check(loop.port).check(target), { found: false, reason: 'HTTP 302' });
  } finally {
    await loop.close();
  }
});

test('private addresses are refused unless allowed, before any request', async () => {
  const server = await serve((_req, res) => res.end(target.token));
  try {
    const refused = await check(server.port, { allowPrivate: false }).check(target);
    assert.deepEqual(refused, { found: false, reason: 'the name resolves only to addresses not allowed' });
    // An IP literal reached by a redirect is checked too.
    const literal = verificationOf({ name: '127.0.0.1', verificationToken: target.token });
    assert.deepEqual(await check(server.port, { allowPrivate: false }).check(literal), {
      found: false,
      reason: 'the address is not allowed',
    });
    assert.deepEqual(server.seen, []);
  } finally {
    await server.close();
  }
});

test('a server that never answers, or stalls in its body, is given up on within the time limit', async () => {
  const silent = await serve(() => {}); // holds every request open
  const stalling = await serve((_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write(target.token.slice(0, 5));
  });
  try {
    for (const server of [silent, stalling]) {
      const started = Date.now();
      const result = await check(server.port, { timeoutMs: 200 }).check(target);
      assert.deepEqual(result, { found: false, reason: 'no answer within 200 ms' });
      assert.ok(Date.now() - started < 1500);
    }
  } finally {
    await silent.close();
    await stalling.close();
  }
});
