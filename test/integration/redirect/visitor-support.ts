/**
 * Helpers for the visitor-side tests (password, consent and pixels, injection). Not a test
 * file itself: the runner only picks *.test.ts. Everything goes through the real HTTP server.
 */
import assert from 'node:assert/strict';
import type { Harness, Reply, RequestOptions } from '../../support/harness.ts';

// Records are read loosely, as a client would.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Node's fetch sends "node" as its User-Agent, which is (rightly) a bot: visits use real ones.
const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** Creates a link through the API; the create must succeed. */
export async function createLink(h: Harness, key: string, form: Record<string, unknown>): Promise<Json> {
  const res = await h.request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/', ...form } });
  assert.equal(res.status, 201, `link create failed: ${res.text}`);
  return res.body.data;
}

export async function createPixel(h: Harness, key: string, type: string, value: string, name?: string): Promise<Json> {
  const res = await h.request('POST', '/api/v1/pixels', {
    key,
    form: { name: name ?? `${type}-${value}`.slice(0, 32), type, value },
  });
  assert.equal(res.status, 201, `pixel create failed: ${res.text}`);
  return res.body.data;
}

export interface VisitOptions {
  ua?: string;
  cookie?: string;
  headers?: Record<string, string>;
  form?: Record<string, unknown>;
}

/** A visitor's request: a browser User-Agent and HTML Accept unless told otherwise. */
export function visit(h: Harness, method: string, path: string, o: VisitOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {
    accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    'user-agent': o.ua ?? DESKTOP_UA,
    ...o.headers,
  };
  if (o.cookie !== undefined) headers.cookie = o.cookie;
  const options: RequestOptions = { headers };
  if (o.form !== undefined) options.form = o.form;
  return h.request(method, path, options);
}

/** The Set-Cookie header lines of a reply. */
export function setCookies(res: Reply): string[] {
  return res.headers.getSetCookie();
}

/** The Set-Cookie line for `name`, or undefined. */
export function setCookie(res: Reply, name: string): string | undefined {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

/** `name=value` of a Set-Cookie line, as a browser would send it back. */
export function cookiePair(line: string): string {
  return line.split(';')[0]!.trim();
}

/** The link's click counter once every buffered click is written. */
export async function clicksOf(h: Harness, key: string, id: number): Promise<number> {
  await h.server.container.visits.sink.flush();
  const res = await h.request('GET', `/api/v1/links/${id}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data.clicks;
}

/** The nonce a page's CSP allows, asserting the policy never allows inline code by itself. */
function cspNonce(res: Reply): string {
  const csp = res.headers.get('content-security-policy');
  assert.ok(csp, 'a visitor page without a Content-Security-Policy');
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|\*(?!\.)/, `CSP too open: ${csp}`);
  assert.match(csp, /default-src 'none'/);
  const nonces = [...csp.matchAll(/'nonce-([^']+)'/g)].map((m) => m[1]!);
  assert.ok(nonces.length >= 1, `no nonce in ${csp}`);
  assert.equal(new Set(nonces).size, 1, `several nonces in ${csp}`);
  return nonces[0]!;
}

/** The directive's sources, e.g. cspSources(res, 'script-src'). */
export function cspSources(res: Reply, directive: string): string[] {
  const csp = res.headers.get('content-security-policy') ?? '';
  const part = csp
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${directive} `));
  return part ? part.split(/\s+/).slice(1) : [];
}

/**
 * A visitor page that is safe whatever its data: HTML, a strict CSP, every <script> and
 * <style> carrying this response's nonce, no event-handler attributes, and one title.
 */
export function assertSafePage(res: Reply, what: string): void {
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `${what}: not HTML`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
  const nonce = cspNonce(res);
  const tags = [...res.text.matchAll(/<(script|style)\b[^>]*>/gi)].map((m) => m[0]);
  for (const tag of tags) assert.ok(tag.includes(` nonce="${nonce}"`), `${what}: ${tag} lacks the CSP nonce`);
  assert.equal(
    (res.text.match(/<script\b/gi) ?? []).length,
    (res.text.match(/<\/script>/gi) ?? []).length,
    `${what}: unbalanced <script>`,
  );
  // Attribute names, with the (escaped, quoted) values taken out: no on* handler anywhere.
  for (const tag of res.text.match(/<[a-z][a-z0-9-]*\b[^>]*>/gi) ?? []) {
    const names = tag.replace(/"[^"]*"|'[^']*'/g, '""');
    assert.doesNotMatch(names, /[\s/"']on[a-z]+\s*=/i, `${what}: an event-handler attribute in ${tag}`);
  }
  assert.doesNotMatch(
    res.text,
    /(href|src|action)\s*=\s*["']?\s*(javascript|data|vbscript):/i,
    `${what}: a script URL`,
  );
  assert.equal((res.text.match(/<title>/gi) ?? []).length, 1, `${what}: the title was broken out of`);
  assert.equal((res.text.match(/<\/title>/gi) ?? []).length, 1, `${what}: the title was broken out of`);
}
