import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HttpTitleFetcher } from './http-title-fetcher.ts';
import { fakeLookup } from '../../../test/support/fake-lookup.ts';

// Every test talks to servers on loopback literals or to names answered by an
// injected lookup: nothing here may touch real DNS or the network.

interface TestServer {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:1234 */
  url: string;
  port: number;
  paths: string[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    paths,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function html(body: string, contentType = 'text/html; charset=utf-8'): http.RequestListener {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  };
}

const open = new HttpTitleFetcher({ allowPrivate: true, timeoutMs: 2000 });
const strict = new HttpTitleFetcher({ allowPrivate: false, timeoutMs: 2000 });

test('fetches and cleans up the title', async () => {
  const server = await serve(html('<html><head><title>\n  Tom &amp; Jerry&#39;s &#x263A; page </title></head></html>'));
  try {
    assert.equal(await open.fetchTitle(`${server.url}/`), "Tom & Jerry's ☺ page");
  } finally {
    await server.close();
  }
});

test('accepts application/xhtml+xml', async () => {
  const server = await serve(html('<html><title>XHTML</title></html>', 'application/xhtml+xml'));
  try {
    assert.equal(await open.fetchTitle(server.url), 'XHTML');
  } finally {
    await server.close();
  }
});

test('follows up to three redirects, relative or absolute', async () => {
  const server = await serve((req, res) => {
    const next: Record<string, string> = { '/a': '/b', '/b': 'c', '/c': `http://127.0.0.1:${server.port}/page` };
    const location = next[req.url ?? ''];
    if (location !== undefined) {
      res.writeHead(req.url === '/b' ? 307 : 301, { location });
      res.end();
    } else {
      html('<title>Arrived</title>')(req, res);
    }
  });
  try {
    assert.equal(await open.fetchTitle(`${server.url}/a`), 'Arrived');
    assert.deepEqual(server.paths, ['/a', '/b', '/c', '/page']);
  } finally {
    await server.close();
  }
});

test('gives up after a fourth redirect', async () => {
  const server = await serve((req, res) => {
    const hop = Number((req.url ?? '/0').slice(1));
    res.writeHead(302, { location: `/${hop + 1}` });
    res.end('<title>not this</title>');
  });
  try {
    assert.equal(await open.fetchTitle(`${server.url}/0`), null);
    assert.deepEqual(server.paths, ['/0', '/1', '/2', '/3']);
  } finally {
    await server.close();
  }
});

test('a redirect without a Location or to another scheme gives null', async () => {
  const server = await serve((req, res) => {
    res.writeHead(302, req.url === '/ftp' ? { location: 'ftp://127.0.0.1/' } : {});
    res.end();
  });
  try {
    assert.equal(await open.fetchTitle(`${server.url}/none`), null);
    assert.equal(await open.fetchTitle(`${server.url}/ftp`), null);
  } finally {
    await server.close();
  }
});

test('stops reading at </title> even if the body never ends', async () => {
  let serverSawClose = false;
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><head><title>Endless</');
    // Split the closing tag across writes to exercise the chunk overlap.
    setTimeout(() => res.write('title><body>'), 20);
    const pump = (): void => {
      if (res.destroyed) return;
      res.write('x'.repeat(16 * 1024), () => setImmediate(pump));
    };
    setTimeout(pump, 40);
    res.on('close', () => {
      serverSawClose = true;
    });
  });
  try {
    assert.equal(await open.fetchTitle(server.url), 'Endless');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(serverSawClose, 'client should have hung up');
  } finally {
    await server.close();
  }
});

test('stops reading at the size cap', async () => {
  let bytesWritten = 0;
  let finished = false;
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = 'y'.repeat(64 * 1024);
    const pump = (): void => {
      if (res.destroyed) return;
      if (bytesWritten >= 20 * 1024 * 1024) {
        res.end('<title>Too late</title>', () => (finished = true));
        return;
      }
      bytesWritten += chunk.length;
      res.write(chunk, () => setImmediate(pump));
    };
    pump();
  });
  try {
    const started = Date.now();
    assert.equal(await open.fetchTitle(server.url), null);
    assert.ok(Date.now() - started < 1500);
    assert.equal(finished, false, 'the server should never have got to the end');
  } finally {
    await server.close();
  }
});

test('a title beyond maxBytes is not found', async () => {
  const page = `<html>${' '.repeat(2000)}<title>Far</title>`;
  const server = await serve(html(page));
  try {
    assert.equal(await new HttpTitleFetcher({ allowPrivate: true, maxBytes: 1024 }).fetchTitle(server.url), null);
    assert.equal(await new HttpTitleFetcher({ allowPrivate: true, maxBytes: 4096 }).fetchTitle(server.url), 'Far');
  } finally {
    await server.close();
  }
});

test('non-HTML, untyped and unsuccessful responses give null', async () => {
  const server = await serve((req, res) => {
    if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json' });
    else if (req.url === '/image') res.writeHead(200, { 'content-type': 'image/svg+xml' });
    else if (req.url === '/untyped') res.writeHead(200);
    else res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<title>Nope</title>');
  });
  try {
    for (const path of ['/json', '/image', '/untyped', '/missing']) {
      assert.equal(await open.fetchTitle(`${server.url}${path}`), null, path);
    }
  } finally {
    await server.close();
  }
});

test('a server that never answers gives null within the timeout', async () => {
  const server = await serve(() => {
    // Accept the request and say nothing.
  });
  try {
    const started = Date.now();
    const title = await new HttpTitleFetcher({ allowPrivate: true, timeoutMs: 300 }).fetchTitle(server.url);
    const elapsed = Date.now() - started;
    assert.equal(title, null);
    assert.ok(elapsed >= 250 && elapsed < 1500, `took ${elapsed} ms`);
    assert.equal(server.paths.length, 1);
  } finally {
    await server.close();
  }
});

test('a server that stalls mid-body gives null within the timeout', async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><head><title>Never fin');
  });
  try {
    const started = Date.now();
    assert.equal(await new HttpTitleFetcher({ allowPrivate: true, timeoutMs: 300 }).fetchTitle(server.url), null);
    assert.ok(Date.now() - started < 1500);
  } finally {
    await server.close();
  }
});

test('a DNS lookup that hangs gives null within the timeout', async () => {
  const hanging: LookupFunction = () => {
    // Never calls back, like getaddrinfo without a reachable resolver.
  };
  const fetcher = new HttpTitleFetcher({ allowPrivate: true, timeoutMs: 300, lookup: hanging });
  const started = Date.now();
  assert.equal(await fetcher.fetchTitle('http://slow.test/'), null);
  assert.ok(Date.now() - started < 1500);
});

test('connects to the address the lookup returned', async () => {
  const server = await serve(html('<title>By name</title>'));
  const calls: string[] = [];
  try {
    const fetcher = new HttpTitleFetcher({
      allowPrivate: true,
      lookup: fakeLookup({ 'site.test': ['127.0.0.1'] }, calls),
    });
    assert.equal(await fetcher.fetchTitle(`http://site.test:${server.port}/`), 'By name');
    assert.deepEqual(calls, ['site.test']);
  } finally {
    await server.close();
  }
});

test('honours latin1 and windows-1252 charsets, from the header or a meta tag', async () => {
  const latin1 = Buffer.concat([Buffer.from('<title>caf'), Buffer.from([0xe9]), Buffer.from(' </title>')]);
  const cp1252 = Buffer.concat([
    Buffer.from('<meta charset="windows-1252"><title>'),
    Buffer.from([0x80]),
    Buffer.from('5 '),
    Buffer.from([0x93, 0x71, 0x94, 0x20, 0xe9]),
    Buffer.from('</title>'),
  ]);
  const server = await serve((req, res) => {
    if (req.url === '/header') {
      res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
      res.end(latin1);
    } else if (req.url === '/meta') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(cp1252);
    } else {
      // A label the Encoding standard does not know is ignored in favour of UTF-8.
      res.writeHead(200, { 'content-type': 'text/html; charset=x-no-such-charset' });
      res.end('<title>ünïcode</title>');
    }
  });
  try {
    assert.equal(await open.fetchTitle(`${server.url}/header`), 'café');
    assert.equal(await open.fetchTitle(`${server.url}/meta`), '€5 “q” é');
    assert.equal(await open.fetchTitle(`${server.url}/other`), 'ünïcode');
  } finally {
    await server.close();
  }
});

const hex = (text: string): Buffer => Buffer.from(text, 'hex');
const page = (...parts: (string | Buffer)[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

test('decodes any charset of the Encoding standard, from the header, a meta tag or a BOM', async () => {
  const shiftJis = hex('93fa967b8cea82cc836583588367'); // 日本語のテスト
  const eucKr = hex('c7d1b1b9beee20c1a6b8f1'); // 한국어 제목
  const latin2 = hex('a3f364bc205a61bff3b3e6'); // Łódź Zażółć
  const pages: Record<string, [string, Buffer]> = {
    '/sjis-header': ['text/html; charset=Shift_JIS', page('<title>', shiftJis, '</title>')],
    '/sjis-meta': ['text/html', page('<meta charset="shift_jis"><title>', shiftJis, '</title>')],
    '/euckr-http-equiv': [
      'text/html',
      page('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><title>', eucKr, '</title>'),
    ],
    '/latin2-header': ['text/html; charset="iso-8859-2"', page('<title>', latin2, '</title>')],
    // The title may come before the <meta>, which a short body shows at once.
    '/meta-after-title': ['text/html', page('<title>', latin2, '</title><meta charset="iso-8859-2">')],
    // The header wins over a meta tag that says otherwise.
    '/header-over-meta': ['text/html; charset=iso-8859-2', page('<meta charset="utf-8"><title>', latin2, '</title>')],
    // A byte order mark wins over everything, as in browsers.
    '/bom': ['text/html; charset=iso-8859-2', page(hex('efbbbf'), '<title>Łódź</title>')],
    '/utf16-bom': ['text/html', Buffer.concat([hex('fffe'), Buffer.from('<title>Ωmega</title>', 'utf16le')])],
  };
  const server = await serve((req, res) => {
    const [type, body] = pages[req.url ?? ''] ?? ['text/html', Buffer.from('')];
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  });
  try {
    const expected: Record<string, string> = {
      '/sjis-header': '日本語のテスト',
      '/sjis-meta': '日本語のテスト',
      '/euckr-http-equiv': '한국어 제목',
      '/latin2-header': 'Łódź Zażółć',
      '/meta-after-title': 'Łódź Zażółć',
      '/header-over-meta': 'Łódź Zażółć',
      '/bom': 'Łódź',
      '/utf16-bom': 'Ωmega',
    };
    for (const [path, title] of Object.entries(expected))
      assert.equal(await open.fetchTitle(`${server.url}${path}`), title, path);
  } finally {
    await server.close();
  }
});

test("reads on past an SVG title to the page's own, and decodes its entities", async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<html><head><svg><title>Icon</title></svg>');
    setTimeout(() => res.end('<title>Caf&eacute; &mdash; menu</title></head></html>'), 20);
  });
  try {
    assert.equal(await open.fetchTitle(server.url), 'Café — menu');
  } finally {
    await server.close();
  }
});

test('reads on past the title to the end of the first 1024 bytes, where a <meta> charset may be', async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(page('<title>', hex('a3f364bc'), '</title>'));
    // Then more than the sniffed bytes, and the body never ends.
    setTimeout(() => res.write(`<meta charset="iso-8859-2">${' '.repeat(2000)}`), 20);
  });
  try {
    assert.equal(await open.fetchTitle(server.url), 'Łódź');
  } finally {
    await server.close();
  }
});

test('decodes a gzip body the server sent unasked', async () => {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(gzipSync('<title>Zipped</title>'));
  });
  try {
    assert.equal(await open.fetchTitle(server.url), 'Zipped');
  } finally {
    await server.close();
  }
});

test('unsupported schemes and malformed URLs give null', async () => {
  for (const url of [
    'ftp://127.0.0.1/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<title>x</title>',
    'not a url',
    '',
  ]) {
    assert.equal(await open.fetchTitle(url), null, url);
  }
});

test('without allowPrivate, loopback literals are refused before connecting', async () => {
  const server = await serve(html('<title>Secret</title>'));
  try {
    const port = server.port;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://0x7f.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `https://127.0.0.1:${port}/`,
    ]) {
      assert.equal(await strict.fetchTitle(url), null, url);
    }
    assert.deepEqual(server.paths, []);
  } finally {
    await server.close();
  }
});

test('without allowPrivate, [::1] is refused before connecting', async (t) => {
  let server: TestServer | null = null;
  try {
    server = await serve(html('<title>Secret</title>'), '::1');
  } catch {
    t.diagnostic('no IPv6 loopback here; only checking the result');
  }
  try {
    const url = server ? `${server.url}/` : 'http://[::1]:9/';
    assert.equal(await strict.fetchTitle(url), null);
    if (server) assert.deepEqual(server.paths, []);
  } finally {
    await server?.close();
  }
});

test('without allowPrivate, a name resolving to loopback is refused before connecting', async () => {
  const server = await serve(html('<title>Secret</title>'));
  const calls: string[] = [];
  try {
    const fetcher = new HttpTitleFetcher({
      allowPrivate: false,
      lookup: fakeLookup({ 'rebind.test': ['127.0.0.1'], 'mapped.test': ['::ffff:127.0.0.1'] }, calls),
    });
    assert.equal(await fetcher.fetchTitle(`http://rebind.test:${server.port}/`), null);
    assert.equal(await fetcher.fetchTitle(`http://mapped.test:${server.port}/`), null);
    // TLS sockets take the same lookup.
    assert.equal(await fetcher.fetchTitle(`https://rebind.test:${server.port}/`), null);
    assert.deepEqual(calls, ['rebind.test', 'mapped.test', 'rebind.test']);
    assert.deepEqual(server.paths, []);
  } finally {
    await server.close();
  }
});

test('a redirect from an allowed server to loopback is refused before connecting', async () => {
  const internal = await serve(html('<title>Secret</title>'));
  const entry = await serve((req, res) => {
    const location =
      req.url === '/by-name' ? `http://internal.test:${internal.port}/` : `http://127.0.0.1:${internal.port}/`;
    res.writeHead(302, { location });
    res.end();
  });
  try {
    // Loopback stands in for a public host: the policy trusts only the very
    // first address it is asked about, i.e. the entry server.
    const policy = (): ((ip: string) => boolean) => {
      let asked = 0;
      return () => asked++ === 0;
    };
    const lookup = fakeLookup({ 'internal.test': ['127.0.0.1'] });
    for (const path of ['/by-literal', '/by-name']) {
      const fetcher = new HttpTitleFetcher({ allowPrivate: false, isAllowedAddress: policy(), lookup });
      assert.equal(await fetcher.fetchTitle(`${entry.url}${path}`), null, path);
    }
    assert.deepEqual(entry.paths, ['/by-literal', '/by-name']);
    assert.deepEqual(internal.paths, []);
  } finally {
    await entry.close();
    await internal.close();
  }
});

test('a name with both allowed and refused answers connects only to the allowed one', async () => {
  const server = await serve(html('<title>Picked</title>'));
  try {
    const fetcher = new HttpTitleFetcher({
      allowPrivate: false,
      isAllowedAddress: (ip) => ip === '127.0.0.1',
      lookup: fakeLookup({ 'mixed.test': ['10.0.0.1', '::1', '127.0.0.1'] }),
    });
    assert.equal(await fetcher.fetchTitle(`http://mixed.test:${server.port}/`), 'Picked');
  } finally {
    await server.close();
  }
});
