// linkpix frames requests exactly as node:http does, because node:http parses them (docs/design/
// visit.md): linkpix and a bare node:http server with the same timeouts, both in this process,
// are sent the same bytes, and each records the request heads node:http handed it ('request':
// method, target, version, raw headers) and the parse error it met ('clientError'), per
// connection. linkpix must see the same heads in the same order and the same error, except
// that it may end a connection sooner by its own answer (`Connection: close`: a refused request,
// a body it did not read), and it answers every head it was handed. The bytes are framing cases
// an attacker tries (request smuggling, obfuscated headers, odd versions, upgrades, pipelining,
// issue 14's findings) and seeded random mutations of two requests, each followed by a
// pipelined second request; every one is sent whole, one byte per write and seven bytes per write.
// SQLite only: framing is the same whatever stores the links. Loopback only.
import { after, before, test } from 'node:test';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../../support/harness.ts';
import { exchange, type Exchange } from '../../support/raw-exchange.ts';
import { makeLink, visit } from './redirect-support.ts';

const ALIAS = 'diff1';
const H = 'Host: short.test\r\n';
const GET = `GET /${ALIAS} HTTP/1.1\r\n${H}`;
const FORM = 'Content-Type: application/x-www-form-urlencoded\r\n';
/** Ends every case: a plain visit that closes, so each exchange ends as soon as the server has read it. */
const SECOND = `GET /${ALIAS}?second=1 HTTP/1.1\r\n${H}Connection: close\r\n\r\n`;
const MODES: Array<number | undefined> = [undefined, 1, 7];
/** Bytes of each exchange split into single or seven-byte writes: past them, bodies go whole. */
const SPLIT_UP_TO = 4096;
// Sixteen workers send requests a byte a write to two servers in this process: on a machine
// shared with another test run, one such request must still arrive within the timeout.
const REQUEST_TIMEOUT_MS = 5000;
/** Long enough for a request cut off by the timeout, far shorter than the keep-alive timeout. */
const WAIT_MS = REQUEST_TIMEOUT_MS + 3000;

/** Framing cases, by name: the first request's bytes (SECOND follows each). */
const CASES: Record<string, string> = {
  'plain visit': `${GET}\r\n`,
  HEAD: `HEAD /${ALIAS} HTTP/1.1\r\n${H}\r\n`,
  'query merged': `GET /${ALIAS}?utm=a&b=%20c HTTP/1.1\r\n${H}\r\n`,
  'unknown alias (page)': `GET /nosuchalias HTTP/1.1\r\n${H}\r\n`,
  'three pipelined': `${GET}\r\n${GET}User-Agent: x\r\n\r\n${GET}\r\n`,
  'CL.TE': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG`,
  'TE.CL': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\npassword\r\n0\r\n\r\n`,
  'chunked body': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\n\r\n8\r\npassword\r\n0\r\n\r\n`,
  'TE xchunked': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n`,
  'TE chunked, identity': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`,
  'TE identity, chunked': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n`,
  'TE tab': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n`,
  'TE space before colon': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n`,
  'TE upper case': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}TRANSFER-ENCODING: CHUNKED\r\n\r\n0\r\n\r\n`,
  'TE twice': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  'TE chunked then identity': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n`,
  'TE on a GET': `${GET}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  'bad chunk size': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n`,
  'chunk extension and trailer': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Transfer-Encoding: chunked\r\n\r\n2;x=y\r\nab\r\n0\r\nX-T: 1\r\n\r\n`,
  'CL twice, same': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc`,
  'CL twice, different': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`,
  'CL list': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 3, 3\r\n\r\nabc`,
  'CL signed +': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: +3\r\n\r\nabc`,
  'CL signed -': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: -3\r\n\r\nabc`,
  'CL leading zeros': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 003\r\n\r\nabc`,
  'CL on a GET': `${GET}Content-Length: 3\r\n\r\nabc`,
  'CL too large for the bytes sent': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 60\r\n\r\nabc`,
  'obs-fold': `${GET}User-Agent: a\r\n b\r\n\r\n`,
  'obs-fold in Host': `GET /${ALIAS} HTTP/1.1\r\nHost: short.test\r\n x\r\n\r\n`,
  'bare LF': `GET /${ALIAS} HTTP/1.1\nHost: short.test\n\n`,
  'bare LF in one line': `${GET}User-Agent: a\nX: b\r\n\r\n`,
  'NUL in a value': `${GET}User-Agent: a\x00b\r\n\r\n`,
  'CR in a value': `${GET}User-Agent: a\rb\r\n\r\n`,
  'NUL in the target': `GET /${ALIAS}\x00 HTTP/1.1\r\n${H}\r\n`,
  'absolute-form': `GET http://short.test/${ALIAS} HTTP/1.1\r\n${H}\r\n`,
  'absolute-form, other Host': `GET http://other.test/${ALIAS} HTTP/1.1\r\n${H}\r\n`,
  'HTTP/1.0': `GET /${ALIAS} HTTP/1.0\r\n${H}\r\n`,
  'HTTP/1.0 keep-alive': `GET /${ALIAS} HTTP/1.0\r\n${H}Connection: keep-alive\r\n\r\n`,
  'HTTP/0.9': `GET /${ALIAS}\r\n`,
  'HTTP/1.2': `GET /${ALIAS} HTTP/1.2\r\n${H}\r\n`,
  'HTTP/2.0 line': `GET /${ALIAS} HTTP/2.0\r\n${H}\r\n`,
  'h2c upgrade': `${GET}Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n`,
  'websocket upgrade': `${GET}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  'h2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  'Expect 100-continue': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Expect: 100-continue\r\nContent-Length: 3\r\n\r\nabc`,
  'Expect other': `${GET}Expect: something\r\n\r\n`,
  'two Hosts': `GET /${ALIAS} HTTP/1.1\r\n${H}Host: other.test\r\n\r\n`,
  'no Host': `GET /${ALIAS} HTTP/1.1\r\n\r\n`,
  'empty Host': `GET /${ALIAS} HTTP/1.1\r\nHost:\r\n\r\n`,
  'Host with port': `GET /${ALIAS} HTTP/1.1\r\nHost: short.test:80\r\n\r\n`,
  fragment: `GET /${ALIAS}?x=1#frag HTTP/1.1\r\n${H}\r\n`,
  'oversized body': `POST /${ALIAS} HTTP/1.1\r\n${H}${FORM}Content-Length: 70000\r\n\r\n${'a'.repeat(70000)}`,
  'Connection: close, then more': `${GET}Connection: close\r\nContent-Length: 3\r\n\r\nabc`,
  'Connection: keep-alive, close': `${GET}Connection: keep-alive, close\r\n\r\n`,
  'Proxy-Connection: close': `${GET}Proxy-Connection: close\r\n\r\n`,
  'lower-case method': `get /${ALIAS} HTTP/1.1\r\n${H}\r\n`,
  'two spaces': `GET  /${ALIAS} HTTP/1.1\r\n${H}\r\n`,
  'OPTIONS *': `OPTIONS * HTTP/1.1\r\n${H}\r\n`,
  CONNECT: `CONNECT short.test:443 HTTP/1.1\r\n${H}\r\n`,
  'header over 16 KiB': `${GET}X-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`,
  'space before colon': `GET /${ALIAS} HTTP/1.1\r\nHost : short.test\r\n\r\n`,
  'API without a key, body unread': `POST /api/v1/links HTTP/1.1\r\n${H}${FORM}Content-Length: 9\r\n\r\nurl=x.com`,
};

/** Bytes the random mutations insert. */
const INSERTED = [
  ' ',
  '\t',
  '\r',
  '\n',
  ':',
  ',',
  '"',
  '\\',
  '\x00',
  '\x7f',
  '\x80',
  '\xff',
  'a',
  '0',
  '9',
  '/',
  '?',
  '#',
  '%',
  '-',
];
const BASES = [
  `GET /${ALIAS}?a=b HTTP/1.1\r\nHost: short.test\r\nUser-Agent: Mozilla/5.0\r\nAccept-Language: fr\r\nConnection: keep-alive\r\n\r\n`,
  `POST /${ALIAS} HTTP/1.1\r\nHost: short.test\r\n${FORM}Content-Length: 11\r\nTransfer-Encoding: chunked\r\n\r\n3\r\npas\r\n0\r\n\r\n`,
];

/** One to three bytes inserted, deleted or changed in one of BASES, from a fixed seed (the same every run). */
function mutations(count: number): string[] {
  let seed = 20261124;
  // The generator's high bits: its low ones repeat with a short period.
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), (seed >>> 16) % n);
  const out = new Set<string>();
  while (out.size < count) {
    let text = BASES[random(BASES.length)]!;
    for (let m = 1 + random(3); m > 0; m--) {
      const i = random(text.length);
      const kind = random(3);
      const c = INSERTED[random(INSERTED.length)]!;
      text =
        kind === 0
          ? text.slice(0, i) + text.slice(i + 1)
          : kind === 1
            ? text.slice(0, i) + c + text.slice(i)
            : text.slice(0, i) + c + text.slice(i + 1);
    }
    out.add(text);
  }
  return [...out];
}

/** What node:http handed a server on one connection: the heads it parsed, and the parse error it met. */
interface Seen {
  heads: string[];
  error: string | null;
}

/** Records, by the client's port, what node:http hands `server`: only its public events. */
function observe(server: Server): Map<number, Seen> {
  const seen = new Map<number, Seen>();
  const of = (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    let entry = seen.get(port);
    if (entry === undefined) seen.set(port, (entry = { heads: [], error: null }));
    return entry;
  };
  server.on('request', (req: IncomingMessage) => {
    of(req.socket).heads.push(`${req.method} ${req.url} HTTP/${req.httpVersion} ${JSON.stringify(req.rawHeaders)}`);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    of(socket).error ??= error.code ?? 'unknown';
  });
  return seen;
}

/** Final answers (not 100 Continue) in what a server sent, and whether the last one closes. */
function finals(received: string): { count: number; closes: boolean } {
  const lines = received.match(/^HTTP\/1\.[01] [2-5]\d\d[^\r]*\r\n(?:[^\r]+\r\n)*/gm) ?? [];
  return { count: lines.length, closes: /\r\nconnection: close\r\n/i.test(lines.at(-1) ?? '') };
}

let linkpix: Harness;
let bare: Server;
let seenByLinkpix: Map<number, Seen>;
let seenByBare: Map<number, Seen>;
before(async () => {
  linkpix = await startHarness('sqlite', {
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    overrides: { tuning: { BODY_LIMIT_BYTES: 65_536 } },
  });
  const { key } = await linkpix.account();
  await makeLink(linkpix, key, { url: 'https://example.com/dest?k=v', alias: ALIAS });
  await visit(linkpix, `/${ALIAS}`); // cached, so that plain visits are answered before Fastify
  const own = linkpix.server.app.server;
  // The same limits as linkpix's server (src/app/http-server.ts), and the plainest answer.
  bare = createServer(
    { requestTimeout: own.requestTimeout, headersTimeout: own.headersTimeout, connectionsCheckingInterval: 1000 },
    (_req, res) => {
      // A length, as linkpix's answers have: without one an HTTP/1.0 answer must close to end.
      res.setHeader('content-length', '0');
      res.end();
    },
  );
  bare.keepAliveTimeout = own.keepAliveTimeout;
  seenByLinkpix = observe(own);
  seenByBare = observe(bare);
  // With a listener of its own, node:http no longer answers a parse error: answered as it would.
  bare.on('clientError', (_error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  bare?.closeAllConnections();
  await Promise.all([linkpix?.close(), new Promise((resolve) => (bare ? bare.close(resolve) : resolve(undefined)))]);
});

const portOf = (h: Harness) => Number(new URL(h.baseUrl).port);
const barePort = () => {
  const address = bare.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
};

/**
 * What linkpix did unlike node:http on one exchange, or null when it framed it alike. Either
 * server may see fewer heads, or no error, only where its own answer closed the connection
 * first: node:http reads pipelined heads while an answer is pending, and the bare server answers
 * at once where linkpix may wait on a body or a store.
 */
function difference(mine: Seen, theirs: Seen, a: Exchange, b: Exchange): string | null {
  const n = Math.min(mine.heads.length, theirs.heads.length);
  for (let i = 0; i < n; i++) if (mine.heads[i] !== theirs.heads[i]) return `another head at ${i}`;
  const fewer = (x: Seen, y: Seen) =>
    x.heads.length < y.heads.length || (x.heads.length === y.heads.length && x.error === null && y.error !== null);
  if (
    mine.heads.length === theirs.heads.length &&
    mine.error !== null &&
    theirs.error !== null &&
    mine.error !== theirs.error
  )
    return `another error (${mine.error})`;
  if (mine.heads.length < theirs.heads.length && mine.error !== null)
    return `an error node:http did not meet (${mine.error})`;
  if (theirs.heads.length < mine.heads.length && theirs.error !== null)
    return `no error where node:http met one (${theirs.error})`;
  const [mineAnswered, theirsAnswered] = [finals(a.received), finals(b.received)];
  if (fewer(mine, theirs) && !mineAnswered.closes) return 'read less without an answer that closes';
  if (fewer(theirs, mine) && !theirsAnswered.closes) return 'read more than node:http, which did not close';
  // Alike to the end: no more answers than node:http gives (its own 400 and 417 included), and
  // fewer only where linkpix's last answer closes the connection (a body it did not read).
  const alike = mine.heads.length === theirs.heads.length && mine.error === theirs.error;
  const { count } = mineAnswered;
  if (alike && (count > theirsAnswered.count || (count < theirsAnswered.count && !mineAnswered.closes)))
    return `${count} answers where node:http gave ${theirsAnswered.count}`;
  return null;
}

/** Sends each text to both servers in every mode, a few at a time; returns the texts framed differently. */
async function differences(texts: string[]): Promise<string[]> {
  const jobs = texts.flatMap((text) => MODES.map((perWrite) => ({ text, perWrite })));
  const found: string[] = [];
  const run = async ({ text, perWrite }: { text: string; perWrite: number | undefined }) => {
    const bytes = text + SECOND;
    const options = { perWrite, splitUpTo: SPLIT_UP_TO, waitMs: WAIT_MS, stopOnEnd: true };
    const [a, b] = await Promise.all([exchange(portOf(linkpix), bytes, options), exchange(barePort(), bytes, options)]);
    const none: Seen = { heads: [], error: null };
    const mine = seenByLinkpix.get(a.localPort ?? 0) ?? none;
    const theirs = seenByBare.get(b.localPort ?? 0) ?? none;
    seenByLinkpix.delete(a.localPort ?? 0);
    seenByBare.delete(b.localPort ?? 0);
    const why = difference(mine, theirs, a, b);
    if (why !== null)
      found.push(
        `${JSON.stringify(text)} by ${perWrite ?? 'all'}: ${why}\n  linkpix: ${JSON.stringify(mine)} ${JSON.stringify(a.received.slice(0, 300))}\n  node: ${JSON.stringify(theirs)}`,
      );
  };
  // Sixteen at a time, each taking the next job as it ends: a case the server answers only at
  // its request timeout holds one worker for that long, not fifteen others that finished.
  let next = 0;
  const workers = Array.from({ length: 16 }, async () => {
    while (next < jobs.length) await run(jobs[next++]!);
  });
  await Promise.all(workers);
  return found;
}

test(
  'linkpix and a bare node:http server frame every case alike, whole, by one byte and by seven',
  { timeout: 60_000 },
  async () => {
    const found = await differences(Object.values(CASES));
    assert.deepEqual(found, []);
  },
);

test(
  'linkpix and a bare node:http server frame 400 seeded mutations of a request alike, each followed by a second request',
  { timeout: 60_000 },
  async () => {
    const found = await differences(mutations(400));
    assert.deepEqual(found, []);
  },
);
