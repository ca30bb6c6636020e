/**
 * Helpers shared by the redirect tests (not a test file itself: the runner only picks
 * *.test.ts). Visits go through node:http rather than fetch: fetch drops a `Host` header and
 * adds `Accept-Language: *` and `Sec-Fetch-Mode` of its own, and these tests need exact headers.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Harness } from '../../support/harness.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Real User-Agent strings, one per platform of the seed, and two bots. */
export const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  fedora: 'Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  chromeos:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl: 'curl/8.5.0',
} as const;

/** A human visitor's browser (Chrome on Windows). */
export const BROWSER = UA.windows;

export interface Visit {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  location: string | undefined;
  text: string;
}

/**
 * One request to the harness's server with exactly these headers (plus a browser User-Agent
 * unless one is given; pass `'user-agent': ''` to send none). `Host` may name a custom domain.
 */
export function visit(h: Harness, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Visit> {
  const url = new URL(h.baseUrl);
  const sent: Record<string, string> = { 'user-agent': BROWSER, accept: 'text/html', ...headers };
  if (sent['user-agent'] === '') delete sent['user-agent'];
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers: sent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          location: res.headers.location,
          text,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A visit that must be an HTTP redirect; returns where it points. */
export async function redirectsTo(h: Harness, path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await visit(h, path, headers);
  assert.equal(res.status, 302, `expected a 302 for ${path}, got ${res.status}: ${res.text.slice(0, 200)}`);
  assert.ok(res.location, 'a redirect without Location');
  return res.location;
}

let seq = 0;
export const unique = (prefix: string): string => `${prefix}${++seq}${randomBytes(3).toString('hex')}`;

/** Host names are unique across the service, so every test takes its own. */
export const uniqueHost = (label = 'go'): string => `${label}-${randomBytes(4).toString('hex')}.example.com`;

/** Creates a link through the API and returns its record; the create must succeed. */
export async function makeLink(h: Harness, key: string, form: Record<string, unknown> = {}): Promise<Json> {
  const res = await h.request('POST', '/api/v1/links', {
    key,
    form: { url: 'https://example.com/', alias: unique('r'), ...form },
  });
  assert.equal(res.status, 201, `create failed: ${res.text}`);
  return res.body.data;
}

/** Creates a domain through the API and, as its owner would, publishes its token and verifies it: it serves. */
export async function makeDomain(h: Harness, key: string, form: Record<string, unknown> = {}): Promise<Json> {
  const res = await h.request('POST', '/api/v1/domains', { key, form: { name: uniqueHost(), ...form } });
  assert.equal(res.status, 201, `domain create failed: ${res.text}`);
  const { id, verification } = res.body.data;
  h.dns.publishTxt(verification.txt_name, verification.token);
  const verified = await h.request('POST', `/api/v1/domains/${id}/verify`, { key });
  assert.equal(verified.status, 200, `domain verify failed: ${verified.text}`);
  return verified.body.data;
}

export async function readLink(h: Harness, key: string, id: number): Promise<Json> {
  const res = await h.request('GET', `/api/v1/links/${id}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

/** Writes the buffered clicks, then returns the link's click rows, oldest first. */
export async function clickRows(h: Harness, linkId: number) {
  await h.server.container.visits.sink.flush();
  return h.server.container.storage.db
    .selectFrom('clicks')
    .selectAll()
    .where('link_id', '=', linkId)
    .orderBy('id')
    .execute();
}

/** Human and bot rows of a link, after a flush. */
export async function clickCounts(h: Harness, linkId: number): Promise<{ human: number; bot: number }> {
  const rows = await clickRows(h, linkId);
  const bot = rows.filter((r) => Number(r.is_bot) === 1).length;
  return { human: rows.length - bot, bot };
}

/** A page the visitor reads (not a redirect): HTML, never cached. */
export function assertPage(res: Visit, status: number, contains: string): void {
  assert.equal(res.status, status, res.text.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.location, undefined);
  assert.ok(res.text.includes(contains), `page does not contain "${contains}": ${res.text.slice(0, 300)}`);
}
