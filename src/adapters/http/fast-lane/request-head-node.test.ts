// Every head the fast lane takes must be read by node:http (llhttp) the same way: method,
// target, the headers the redirect reads, and where the next request starts. Heads are made by
// inserting and deleting single bytes all over a browser's request, and each is sent to a real
// node:http server followed by a second request; whenever readRequestHead takes one, node:http
// must have answered it and read it alike (the lane declining what node:http would take is fine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawConnection } from '../../../../test/support/raw-http.ts';
import { INCOMPLETE, readRequestHead, type LaneHeaders } from './request-head.ts';

const BASE =
  'GET /ab?c=d HTTP/1.1\r\nHost: sho.rt\r\nUser-Agent: Mozilla/5.0 (X11)\r\nAccept-Language: fr;q=0.8\r\n' +
  'X-Forwarded-For: 203.0.113.5\r\nConnection: keep-alive\r\n\r\n';
const SECOND = 'GET /second HTTP/1.1\r\nHost: sho.rt\r\n\r\n';
const INSERTED = [' ', '\t', '\r', '\n', ':', ',', '"', '\\', '\x00', '\x01', '\x7f', '\x80', '\xff', 'a', 'H', '/', '?', '#', '%'];

function variants(): string[] {
  const out = new Set<string>([BASE]);
  const end = BASE.length - 2;
  for (let i = 0; i <= end; i++) {
    for (const c of INSERTED) out.add(BASE.slice(0, i) + c + BASE.slice(i));
    out.add(BASE.slice(0, i) + BASE.slice(i + 1));
  }
  for (const line of [
    'Host:sho.rt',
    'Host:  sho.rt  ',
    'Host:\tsho.rt\t',
    'HOST: sho.rt',
    'Dnt: 1',
    'Sec-GPC:1',
    'Referer: https://a.example/x?y=z',
    'X-Forwarded-Host: a, b',
    'User-Agent:',
    'User-Agent: \t',
    'Accept-Language: *',
    'Keep-Alive: 300',
    'Proxy-Connection: close',
    'TE: trailers',
    'Content-Length: 0',
    'Content-Length: 5',
    'Transfer-Encoding: identity',
    'Connection: keep-alive',
    'X-Forwarded-For: 1.2.3.4, 5.6.7.8',
    'Cookie: a=b; c=d',
  ])
    out.add(BASE.replace('Connection: keep-alive\r\n', `${line}\r\n`));
  for (const target of ['/', '/a/b', '/a?', '/a#f', '/%2e%2e/', '//x', '/a?b=%00', "/!$&'()*+,;=:@~", '/a|b', '/a{b}', '/a`b']) {
    out.add(BASE.replace('/ab?c=d', target));
  }
  // And 1 500 heads with two to four bytes changed at once, from a fixed seed (the same every run).
  let seed = 20261123;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let k = 0; k < 1500; k++) {
    let text = BASE;
    for (let m = 2 + random(3); m > 0; m--) {
      const i = random(text.length - 2);
      text = random(3) === 0 ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + INSERTED[random(INSERTED.length)] + text.slice(i);
    }
    out.add(text);
  }
  return [...out];
}

interface NodeRead {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

test('node:http reads every head the fast lane takes as the lane does', { timeout: 120_000 }, async () => {
  const reads = new Map<number, NodeRead[]>();
  const server = createServer((req, res) => {
    const id = Number(req.socket.remotePort);
    reads.set(id, [...(reads.get(id) ?? []), { method: req.method!, url: req.url!, headers: req.headers }]);
    res.writeHead(200, { 'content-length': '0' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const taken = variants().filter((text) => {
    const head = readRequestHead(Buffer.from(text, 'latin1'), 0);
    return head !== null && head !== INCOMPLETE;
  });
  assert.ok(taken.length > 50, `only ${taken.length} variants taken: the lane takes too little to be tested here`);

  const check = async (text: string) => {
    const head = readRequestHead(Buffer.from(text + SECOND, 'latin1'), 0);
    assert.ok(head !== null && head !== INCOMPLETE);
    const c = await rawConnection(port);
    await c.write(text + SECOND);
    const answers = await c.responses(2).catch((e: Error) => assert.fail(`${JSON.stringify(text)}: ${e.message}`));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200],
      JSON.stringify(text),
    );
    // A port is taken again once its connection has closed: this connection's reads leave with it.
    const local = Number(c.socket.localPort);
    const [first, second] = reads.get(local)!;
    reads.delete(local);
    c.close();
    assert.equal(first!.method, head.method, JSON.stringify(text));
    assert.equal(first!.url, head.url, JSON.stringify(text));
    for (const name of Object.keys(head.headers) as Array<keyof LaneHeaders>) {
      assert.equal(first!.headers[name], head.headers[name], `${name} of ${JSON.stringify(text)}`);
    }
    assert.equal(second!.url, '/second', `where the next request starts, after ${JSON.stringify(text)}`);
  };
  try {
    for (let i = 0; i < taken.length; i += 25) await Promise.all(taken.slice(i, i + 25).map(check));
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
