// The fast lane's head reader alone: the one shape it takes, and everything it leaves to
// node:http. (That node:http reads every head it takes the same way: fast-lane.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INCOMPLETE, MAX_HEAD_BYTES, readRequestHead } from './request-head.ts';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const read = (text: string, start = 0) => readRequestHead(Buffer.from(text, 'latin1'), start);

test("a browser's GET: method, target and the headers the redirect reads, trimmed", () => {
  const text =
    `GET /abc?utm_source=x HTTP/1.1\r\nHost: Go.Example.com:8080\r\nUser-Agent: ${UA}\r\n` +
    'Accept: text/html\r\naccept-language:  fr-CH, fr;q=0.9 \t\r\nREFERER: https://news.example/\r\nDNT: 1\r\n' +
    'Sec-GPC: 1\r\nX-Forwarded-For: 203.0.113.5\r\nX-Forwarded-Host: sho.rt\r\nConnection: Keep-Alive\r\n\r\n';
  const head = read(text);
  assert.ok(head !== null && head !== INCOMPLETE);
  assert.equal(head.method, 'GET');
  assert.equal(head.url, '/abc?utm_source=x');
  assert.equal(head.length, Buffer.byteLength(text));
  assert.deepEqual(head.headers, {
    host: 'Go.Example.com:8080',
    'user-agent': UA,
    'accept-language': 'fr-CH, fr;q=0.9',
    referer: 'https://news.example/',
    dnt: '1',
    'sec-gpc': '1',
    'x-forwarded-for': '203.0.113.5',
    'x-forwarded-host': 'sho.rt',
  });
});

test('HEAD, and pipelined heads read one after the other', () => {
  const one = 'HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n';
  const two = 'GET /b HTTP/1.1\r\nHost: h\r\nUser-Agent:\r\n\r\n';
  const first = read(one + two);
  assert.ok(first !== null && first !== INCOMPLETE);
  assert.equal(first.method, 'HEAD');
  const second = read(one + two, first.length);
  assert.ok(second !== null && second !== INCOMPLETE);
  assert.deepEqual([second.method, second.url, second.headers['user-agent']], ['GET', '/b', '']);
});

test('a head whose blank line has not arrived is incomplete until it is too long', () => {
  assert.equal(read('GET /a HTTP/1.1\r\nHost: h\r\n'), INCOMPLETE);
  assert.equal(read('GET /a HTTP/1.1\r\nHost: h\r\n\r'), INCOMPLETE);
  assert.equal(read(`GET /a HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`), null);
  assert.equal(read(`GET /a HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`), null);
});

test('every other shape is left to node:http', () => {
  const declined = [
    'POST /a HTTP/1.1\r\nHost: h\r\n\r\n',
    'get /a HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET /a HTTP/1.0\r\nHost: h\r\n\r\n',
    'GET /a HTTP/2.0\r\nHost: h\r\n\r\n',
    'GET http://h/a HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET * HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET /a b HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET  /a HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET /\x7f HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET /\xe9 HTTP/1.1\r\nHost: h\r\n\r\n',
    'GET /a HTTP/1.1\nHost: h\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\nX: y\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost : h\r\n\r\n',
    'GET /a HTTP/1.1\r\n: h\r\nHost: h\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nX-Y: caf\xe9\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nX-Y: a\x00b\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nX-Y: a\rb\r\n\r\n',
    'GET /a HTTP/1.1\r\nUser-Agent: x\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nHost: i\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nUser-Agent: a\r\nuser-agent: b\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 1.2.3.4\r\nx-forwarded-for: 5.6.7.8\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
    'GET /a HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, TE\r\n\r\n',
  ];
  for (const text of declined) assert.equal(read(text), null, JSON.stringify(text));
});

test('a head may start anywhere in the bytes, and only its own bytes are read', () => {
  const bytes = Buffer.from('xxxxGET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST', 'latin1');
  const head = readRequestHead(bytes, 4);
  assert.ok(head !== null && head !== INCOMPLETE);
  assert.equal(head.length, bytes.length - 8);
  assert.equal(readRequestHead(bytes, 4 + head.length), INCOMPLETE);
});

test('a target with a fragment, and a second Host, are left to node:http (which refuses both: malformed-request.ts)', () => {
  for (const target of ['/a#f', '/a?x=1#f', '/a?x=#', '/#']) assert.equal(read(`GET ${target} HTTP/1.1\r\nHost: h\r\n\r\n`), null, target);
  assert.equal(read('GET /a HTTP/1.1\r\nHost: h\r\nhost: i\r\n\r\n'), null);
});
