// Issue 30, finding 5: a 2048 px PNG QR code held the event loop for about 0.6 s, so 20 of them
// kept /health waiting for seconds. PNGs are drawn in render threads now, kept in an LRU, and
// refused (503, Retry-After) past a bounded queue; the bytes are qrcode's, as before. /health's
// p99 while twenty are drawn is test/e2e/event-loop-under-load.test.ts's, on the compiled server.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import QRCode from 'qrcode';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { signedUp, type WebClient } from '../../support/web-client.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

/** What the API drew before render threads: qrcode on the main thread, with the API's options. */
const expectedPng = (text: string, size: number, look = { margin: 2, dark: '#000000', light: '#ffffff' }) =>
  QRCode.toBuffer(text, {
    errorCorrectionLevel: 'M',
    margin: look.margin,
    width: size,
    color: { dark: look.dark, light: look.light },
    type: 'png',
  });

async function png(
  h: Harness,
  key: string,
  path: string,
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(h.baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

async function links(h: Harness, key: string, n: number, prefix: string): Promise<{ id: number; alias: string }[]> {
  const made = [];
  for (let i = 0; i < n; i++) {
    const reply = await h.request('POST', '/api/v1/links', {
      key,
      form: { url: `https://example.com/${prefix}/${i}`, alias: `${prefix}-${i}` },
    });
    assert.equal(reply.status, 201, reply.text);
    made.push(reply.body.data as { id: number; alias: string });
  }
  return made;
}

onEachEngine('QR codes drawn off the event loop', (h) => {
  let key: string;
  let web: WebClient;

  before(async () => {
    const a = await signedUp(h().baseUrl);
    web = a.client;
    key = (await h().server.container.accounts.createKey(a.email, 'test', TEST_ACTOR)).apiKey;
  });

  test("the API's PNG is the bytes qrcode drew on the main thread, at every size, drawn or kept", async () => {
    const [link] = await links(h(), key, 1, 'bytes');
    const text = `http://short.test/${link!.alias}?qr=1`;
    for (const size of [64, 300, 1000, 2048]) {
      const expected = await expectedPng(text, size);
      const first = await png(h(), key, `/api/v1/links/${link!.id}/qr?format=png&size=${size}`);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('content-type'), 'image/png');
      assert.ok(first.bytes.equals(expected), `size ${size}: drawn`);
      const again = await png(h(), key, `/api/v1/links/${link!.id}/qr?format=png&size=${size}`);
      assert.ok(again.bytes.equals(expected), `size ${size}: from the cache`);
    }
    // Asked for at once: one render shared, the same bytes for each.
    const expected = await expectedPng(text, 1500);
    const together = await Promise.all(
      Array.from({ length: 5 }, () => png(h(), key, `/api/v1/links/${link!.id}/qr?format=png&size=1500`)),
    );
    for (const t of together) assert.ok(t.status === 200 && t.bytes.equals(expected));
  });

  test("the web app's PNG and SVG, colours and margin included, are qrcode's bytes", async () => {
    const [link] = await links(h(), key, 1, 'webbytes');
    const text = `http://short.test/${link!.alias}?qr=1`;
    const query = 'size=700&margin=4&foreground=%23123456&background=%23fedcba';
    const expected = await expectedPng(text, 700, { margin: 4, dark: '#123456', light: '#fedcba' });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${h().baseUrl}/links/${link!.id}/qr.png?${query}`, {
        headers: { cookie: cookieOf(web) },
      });
      assert.equal(res.status, 200);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(expected), i === 0 ? 'drawn' : 'from the cache');
    }
    const svg = await web.get(`/links/${link!.id}/qr.svg?${query}`);
    const expectedSvg = await QRCode.toString(text, {
      errorCorrectionLevel: 'M',
      margin: 4,
      width: 700,
      color: { dark: '#123456', light: '#fedcba' },
      type: 'svg',
    });
    assert.equal(svg.text, expectedSvg);
  });
});

onEachEngine(
  'QR codes past the render queue',
  (h) => {
    let key: string;
    let web: WebClient;

    before(async () => {
      const a = await signedUp(h().baseUrl);
      web = a.client;
      key = (await h().server.container.accounts.createKey(a.email, 'test', TEST_ACTOR)).apiKey;
    });

    test('past one drawing and none waiting, a PNG is refused with 503 and Retry-After in the error format', async () => {
      const made = await links(h(), key, 8, 'busy');
      const replies = await Promise.all(
        made.map((l) => h().request('GET', `/api/v1/links/${l.id}/qr?format=png&size=2048`, { key })),
      );
      const statuses = replies.map((r) => r.status);
      assert.ok(statuses.includes(200), statuses.join(','));
      const refused = replies.filter((r) => r.status === 503);
      assert.ok(refused.length >= 1, statuses.join(','));
      for (const r of refused) {
        assert.deepEqual(r.body, {
          message: 'The QR code renderer is unavailable; please try again shortly.',
          status: 503,
        });
        assert.equal(r.headers.get('retry-after'), '5');
        assert.equal(r.headers.get('content-disposition'), null);
      }
      // SVG is drawn on the event loop, under a millisecond: never queued, never refused.
      const svgs = await Promise.all(
        made.map((l) => h().request('GET', `/api/v1/links/${l.id}/qr?size=2048`, { key })),
      );
      assert.deepEqual(
        svgs.map((r) => r.status),
        Array(made.length).fill(200),
      );
    });

    test("the web app's PNG download past the queue is its 'busy' page (503, Retry-After)", async () => {
      const made = await links(h(), key, 8, 'webbusy');
      const replies = await Promise.all(made.map((l) => web.get(`/links/${l.id}/qr.png?size=2048`)));
      const refused = replies.filter((r) => r.status === 503);
      assert.ok(refused.length >= 1, replies.map((r) => r.status).join(','));
      for (const r of refused) {
        assert.equal(r.headers.get('retry-after'), '5');
        assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(r.text, /Busy just now/);
        assert.equal(r.headers.get('content-disposition'), null);
      }
    });
  },
  { overrides: { tuning: { QR_THREADS: 1, QR_QUEUE_MAX: 0, QR_CACHE_BYTES: 0 } } },
);

function cookieOf(client: WebClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
