// Aliases as long as the contract allows (255 characters, phpShort's limit) reach their link
// through every door a visit can take: the fast lane (a new connection's plain GET of a cached
// link), the fast path on node:http (a connection the lane has handed over), Fastify's route
// (a first visit, a percent-encoded path, pages and posts), and a custom domain's host. A path
// past the limit answers in the contract's envelope, not in Fastify's own body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { rawConnection, type RawResponse } from '../../support/raw-http.ts';
import { assertPage, BROWSER, clickRows, makeDomain, makeLink, visit } from './redirect-support.ts';
import { cookiePair, createPixel, setCookie } from './visitor-support.ts';

const MAX = 255;
const portOf = (h: Harness) => Number(new URL(h.baseUrl).port);

/** A fresh alias of exactly `length` characters (letters, digits, - and _). */
const aliasOf = (length: number) => {
  const tail = `-${randomBytes(4).toString('hex')}`;
  return 'L'.repeat(length - tail.length) + tail;
};

/** Every character percent-encoded: three times as long as the alias. */
const encoded = (alias: string) =>
  [...alias].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

const get = (path: string, host = 'short.test') =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: ${BROWSER}\r\n\r\n`;

async function rawAnswers(h: Harness, text: string, count: number): Promise<RawResponse[]> {
  const c = await rawConnection(portOf(h));
  try {
    await c.write(text);
    return await c.responses(count);
  } finally {
    c.close();
  }
}

/** The contract's error envelope, as JSON. */
function assertEnvelope(res: { status: number; text: string; contentType: string | undefined }, status: number): void {
  assert.equal(res.status, status, res.text.slice(0, 300));
  assert.match(String(res.contentType), /^application\/json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['message', 'status']);
  assert.equal(body.status, status);
  assert.equal(typeof body.message, 'string');
  assert.ok(!res.text.includes('FST_ERR'), 'a framework error code reached the client');
}

onEachEngine('redirect: aliases of up to 255 characters', (h) => {
  test('a 255-character alias is created and redirects through the route, the fast path on node:http and the fast lane', async () => {
    const { key } = await h().account();
    const alias = aliasOf(MAX);
    const link = await makeLink(h(), key, { alias, url: 'https://example.com/long' });
    assert.equal(link.alias, alias);
    // Not cached yet: Fastify's route reads the link (and caches it).
    const routed = await visit(h(), `/${alias}?x=1`);
    assert.equal(routed.status, 302, routed.text);
    assert.equal(routed.location, 'https://example.com/long?x=1');
    // A new connection's plain GET of a cached link: the fast lane.
    const [laned] = await rawAnswers(h(), get(`/${alias}?x=1`), 1);
    assert.equal(laned!.status, 302, laned!.body);
    assert.equal(laned!.headers.location, routed.location);
    // After a request the lane does not take, the connection is node:http's: its fast path.
    const [health, onNodeHttp] = await rawAnswers(h(), get('/health') + get(`/${alias}?x=1`), 2);
    assert.equal(health!.status, 200);
    assert.equal(onNodeHttp!.status, 302, onNodeHttp!.body);
    assert.equal(onNodeHttp!.headers.location, routed.location);
    // Looked up without regard to case, as every alias.
    assert.equal((await visit(h(), `/${alias.toLowerCase()}`)).status, 302);
    assert.equal((await clickRows(h(), link.id)).length, 4);
  });

  test('its preview page, HEAD, and its percent-encoded spelling (765 characters) reach it too', async () => {
    const { key } = await h().account();
    const alias = aliasOf(MAX);
    await makeLink(h(), key, { alias, url: 'https://example.com/preview-me' });
    assertPage(await visit(h(), `/${alias}/+`), 200, 'https://example.com/preview-me');
    assertPage(await visit(h(), `/${encoded(alias)}/+`), 200, 'https://example.com/preview-me');
    assert.equal((await visit(h(), `/${alias}`, {}, 'HEAD')).status, 302);
    const viaEncoded = await visit(h(), `/${encoded(alias)}`);
    assert.equal(viaEncoded.status, 302, viaEncoded.text);
    assert.equal(viaEncoded.location, 'https://example.com/preview-me');
  });

  test("a password link's form and post, and a pixel link's consent post, at 255 characters", async () => {
    const { key } = await h().account();
    const locked = aliasOf(MAX);
    await makeLink(h(), key, { alias: locked, url: 'https://example.com/locked', password: 'opensesame' });
    assertPage(await visit(h(), `/${locked}`), 200, 'type="password"');
    const unlocked = await h().request('POST', `/${locked}`, {
      form: { password: 'opensesame' },
      headers: { accept: 'text/html' },
    });
    assert.equal(unlocked.status, 200, unlocked.text.slice(0, 300));
    assert.ok(
      unlocked.headers.getSetCookie().some((c) => c.startsWith('lp_unlock_')),
      'no unlock cookie',
    );
    assert.match(unlocked.text, /https:\/\/example\.com\/locked/);
    const preview = await h().request('POST', `/${locked}/+`, {
      form: { password: 'opensesame' },
      headers: { accept: 'text/html' },
    });
    assert.equal(preview.status, 200);
    assert.match(preview.text, /https:\/\/example\.com\/locked/);

    const px = await createPixel(h(), key, 'facebook', 'fb123456', `fb-${randomBytes(4).toString('hex')}`);
    const tracked = aliasOf(MAX);
    await makeLink(h(), key, { alias: tracked, url: 'https://example.com/tracked', pixels: [px.id] });
    assertPage(await visit(h(), `/${tracked}`), 200, 'name="consent"');
    const consented = await h().request('POST', `/${tracked}`, {
      form: { consent: 'no' },
      headers: { accept: 'text/html' },
    });
    assert.equal(consented.status, 200, consented.text.slice(0, 300));
    assert.equal(cookiePair(setCookie(consented, 'lp_consent') ?? ''), 'lp_consent=no');
  });

  test("a custom domain's 255-character alias, through the route and the fast lane", async () => {
    const { key } = await h().account();
    const domain = await makeDomain(h(), key);
    const alias = aliasOf(MAX);
    await makeLink(h(), key, { alias, domain: domain.id, url: 'https://example.com/on-domain' });
    const routed = await visit(h(), `/${alias}`, { host: domain.name });
    assert.equal(routed.status, 302, routed.text);
    assert.equal(routed.location, 'https://example.com/on-domain');
    const [laned] = await rawAnswers(h(), get(`/${alias}`, domain.name), 1);
    assert.equal(laned!.headers.location, 'https://example.com/on-domain');
    assertPage(await visit(h(), `/${alias}/+`, { host: domain.name }), 200, 'https://example.com/on-domain');
    // Not on the app's host: aliases are unique per domain.
    assert.equal((await visit(h(), `/${alias}`)).status, 404);
  });

  test('an unknown path of 255 characters with non-ASCII ones near the end is the not-found page', async () => {
    // Aliases are ASCII (letters, digits, - and _): a path with other characters names no link.
    const near = `${aliasOf(MAX - 2)}é€`;
    assert.equal(near.length, MAX);
    for (const path of [`/${encodeURIComponent(near)}`, `/${encodeURIComponent(near)}/+`]) {
      assertPage(await visit(h(), path), 404, '<html');
    }
  });

  test('a segment past 255 characters (decoded) answers 414 in the contract envelope, on every visitor route', async () => {
    const long = aliasOf(MAX + 1);
    const nonAscii = `${aliasOf(MAX - 1)}éé`;
    const cases: Array<[string, string]> = [
      ['GET', `/${long}`],
      ['HEAD', `/${long}`],
      ['GET', `/${long}/+`],
      ['POST', `/${long}`],
      ['POST', `/${long}/+`],
      ['GET', `/${encoded(long)}`],
      ['GET', `/${encodeURIComponent(nonAscii)}`],
      ['GET', `/api/v1/links/${'9'.repeat(MAX + 1)}`],
    ];
    for (const [method, path] of cases) {
      const res = await h().request(method, path, method === 'POST' ? { form: { password: 'x' } } : {});
      if (method === 'HEAD') assert.equal(res.status, 414, path);
      else
        assertEnvelope(
          { status: res.status, text: res.text, contentType: res.headers.get('content-type') ?? undefined },
          414,
        );
    }
    const [raw] = await rawAnswers(h(), get(`/${long}`), 1);
    assertEnvelope({ status: raw!.status, text: raw!.body, contentType: raw!.headers['content-type'] }, 414);
  });
});
