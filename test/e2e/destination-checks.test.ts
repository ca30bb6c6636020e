// The HTTP destination checker against loopback servers (docs/design/health.md): answers, a hang,
// a drop, HEAD refused, redirects and their loop, the address policy, and the per-host gate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDestinationChecker } from '../../src/adapters/health/http-destination-checker.ts';

let server: Server;
let base = '';
const seen: Array<{ method: string; path: string; ua: string; at: number }> = [];

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path, ua: req.headers['user-agent'] ?? '', at: Date.now() });
    if (path === '/hang') return;
    if (path === '/drop') return void req.socket.destroy();
    if (path === '/no-head' && req.method === 'HEAD') return void res.writeHead(405).end();
    if (path === '/loop') return void res.writeHead(302, { location: '/loop2' }).end();
    if (path === '/loop2') return void res.writeHead(302, { location: '/loop' }).end();
    if (path.startsWith('/hop/')) {
      const n = Number(path.slice(5));
      return void res.writeHead(301, { location: n > 0 ? `/hop/${n - 1}` : '/200' }).end();
    }
    const code = Number(path.slice(1)) || 200;
    res.writeHead(code, { 'content-type': 'text/plain' }).end('body');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const checker = (over: Partial<ConstructorParameters<typeof HttpDestinationChecker>[0]> = {}) =>
  new HttpDestinationChecker({
    allowPrivate: true,
    appUrl: 'https://lpx.example',
    timeoutMs: 300,
    hostSpacingMs: 0,
    maxInFlight: 4,
    ...over,
  });

test('answers 200, 404 and 500 as their codes, naming linkpix and APP_URL', async () => {
  const c = checker();
  assert.deepEqual(await c.check(`${base}/200`), { code: 200 });
  assert.deepEqual(await c.check(`${base}/404`), { code: 404 });
  assert.deepEqual(await c.check(`${base}/500`), { code: 500 });
  assert.match(seen.at(-1)!.ua, /linkpix.*https:\/\/lpx\.example/);
  assert.equal(seen.at(-1)!.method, 'HEAD');
  await c.close();
});

test('a hang is a timeout, a dropped connection a connect failure, a refused port too', async () => {
  const c = checker();
  assert.deepEqual(await c.check(`${base}/hang`), { reason: 'timeout' });
  assert.deepEqual(await c.check(`${base}/drop`), { reason: 'connect' });
  assert.deepEqual(await c.check('http://127.0.0.1:1/'), { reason: 'connect' });
  await c.close();
});

test('GET where HEAD is refused; redirects followed up to 10; a loop and an 11th hop are refused', async () => {
  const c = checker();
  assert.deepEqual(await c.check(`${base}/no-head`), { code: 200 });
  assert.deepEqual(
    seen.slice(-2).map((s) => s.method),
    ['HEAD', 'GET'],
  );
  assert.deepEqual(await c.check(`${base}/hop/9`), { code: 200 }, 'ten redirects');
  assert.deepEqual(await c.check(`${base}/hop/10`), { reason: 'redirects' }, 'eleven');
  assert.deepEqual(await c.check(`${base}/loop`), { reason: 'redirects' });
  await c.close();
});

test('loopback refused under the outbound policy, and a DNS failure named so', async () => {
  const c = checker({ allowPrivate: false });
  assert.deepEqual(await c.check(`${base}/200`), { reason: 'connect' });
  const d = checker({
    lookup: ((_h: string, _o: unknown, cb: (e: NodeJS.ErrnoException) => void) =>
      cb(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }))) as never,
  });
  assert.deepEqual(await d.check('http://nowhere.invalid/'), { reason: 'dns' });
  await c.close();
  await d.close();
});

test('one request at a time to a host, spaced', async () => {
  const c = checker({ hostSpacingMs: 150 });
  const from = seen.length;
  await Promise.all([c.check(`${base}/200`), c.check(`${base}/201`), c.check(`${base}/202`)]);
  const at = seen.slice(from).map((s) => s.at);
  assert.equal(at.length, 3);
  for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= 140, `spaced: ${at[i]! - at[i - 1]!} ms`);
  await c.close();
});

test('a stop ends a request that hangs and the waits behind it in the gate at once; the gate is free after', async () => {
  const c = checker({ timeoutMs: 60_000, hostSpacingMs: 1000, maxInFlight: 1 });
  const stop = new AbortController();
  const from = seen.length;
  const started = performance.now();
  const checks = Promise.all([c.check(`${base}/hang`, stop.signal), c.check(`${base}/hang`, stop.signal)]);
  while (seen.length === from) await new Promise((resolve) => setTimeout(resolve, 5));
  stop.abort();
  const answers = await checks;
  const ms = performance.now() - started;
  assert.ok(ms < 500, `ended ${Math.round(ms)} ms after the start`);
  assert.equal(seen.length - from, 1, 'the second never asked');
  assert.equal(answers.length, 2, 'both answered (a failure, which a round does not record)');
  assert.deepEqual(await c.check(`${base}/200`), { code: 200 }, 'a check without the signal still goes');
  await c.close();
});
