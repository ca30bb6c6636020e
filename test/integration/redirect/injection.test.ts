import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { onEachEngine, type Harness, type Reply } from '../../support/harness.ts';
import { IPHONE_UA, assertSafePage, cookiePair, createLink, createPixel, setCookie, visit } from './visitor-support.ts';

// Markup an attacker would like a page to carry, in forms that fit each field's rules.
const TITLE = `</title><script>alert(1)</script>'"\`<img src=x onerror=alert(2)>`;
const PAYLOAD = `"><script>alert(1)</script><img/src=x/onerror=alert(2)>'\``;
const HOSTILE_URL = `https://example.com/p?q=${PAYLOAD}`;
const HOSTILE_IOS = `https://ios.example.com/?a=${PAYLOAD}#${PAYLOAD}`;
const QUERY = `x=${encodeURIComponent(PAYLOAD)}&y="><script>alert(3)</script>`;

/** No hostile fragment made it into the markup as markup. */
function assertClean(res: Reply, what: string): void {
  assertSafePage(res, what);
  for (const bad of ['<script>alert', '<img/src', '<img src=x', '</title><script']) {
    assert.ok(!res.text.toLowerCase().includes(bad), `${what} carries ${bad}:\n${res.text}`);
  }
}

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function getOnHost(h: Harness, path: string, host: string): Promise<Reply> {
  const { port } = new URL(h.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host, 'user-agent': 'Mozilla/5.0 Chrome/124.0', accept: 'text/html' },
      },
      (r) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (d) => (text += d));
        r.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(r.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: r.statusCode ?? 0, headers, text, body: undefined });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function hostileLink(h: Harness, key: string, extra: Record<string, unknown> = {}) {
  return createLink(h, key, {
    url: HOSTILE_URL,
    title: TITLE,
    target_type: 2,
    platform: [
      { key: 'iOS', value: HOSTILE_IOS },
      { key: 'Android', value: HOSTILE_URL },
    ],
    country: [{ key: 'US', value: HOSTILE_URL }],
    language: [{ key: 'en', value: HOSTILE_URL }],
    rotation: [{ value: HOSTILE_URL }],
    expiration_url: HOSTILE_URL,
    ...extra,
  });
}

onEachEngine('no markup injection into visitor pages', (h) => {
  test("the API keeps hostile text as data (it is the pages' job to escape it)", async () => {
    const { key } = await h().account();
    const link = await hostileLink(h(), key);
    assert.equal(link.title, TITLE);
    assert.equal(link.url, HOSTILE_URL);
    assert.equal(link.platform_target[0].value, HOSTILE_IOS);
  });

  test('pixel values and domain names cannot carry markup or quotes', async () => {
    const { key } = await h().account();
    for (const value of [
      '<script>alert(1)</script>',
      '</script>',
      'a"b',
      "a'b",
      'a b',
      'a\\u003c',
      'x;alert(1)',
      'a<b',
    ]) {
      const res = await h().request('POST', '/api/v1/pixels', { key, form: { name: 'bad', type: 'facebook', value } });
      assert.equal(res.status, 422, `${value}: ${res.text}`);
      assert.ok(res.body.message.value, res.text);
    }
    const good = await createPixel(h(), key, 'twitter', 'ok_1');
    const put = await h().request('PUT', `/api/v1/pixels/${good.id}`, {
      key,
      json: { value: '"><script>alert(1)</script>' },
    });
    assert.equal(put.status, 422, put.text);
    for (const name of ['"><script>.example.com', 'a<b>.example.com', 'x.example.com/"><script>', "it's.example.com"]) {
      const res = await h().request('POST', '/api/v1/domains', { key, form: { name } });
      assert.equal(res.status, 422, `${name}: ${res.text}`);
    }
  });

  test('preview, consent, pixel page and the pages after POST stay inert', async () => {
    const { key } = await h().account();
    const px = await createPixel(h(), key, 'facebook', 'fb_1', 'inj-fb');
    const tw = await createPixel(h(), key, 'twitter', 'tw_1', 'inj-tw');
    const link = await hostileLink(h(), key, { pixels: [px.id, tw.id] });
    const path = `/${link.alias}?${QUERY}`;

    const preview = await visit(h(), 'GET', `/${link.alias}/+?${QUERY}`);
    assert.equal(preview.status, 200);
    assertClean(preview, 'preview');
    assert.ok(
      preview.text.includes('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;'),
      'the title is shown as text',
    );

    const consent = await visit(h(), 'GET', path, { ua: IPHONE_UA });
    assert.equal(consent.status, 200);
    assertClean(consent, 'consent page');

    for (const [what, reply] of [
      ['pixel page after POST yes', await visit(h(), 'POST', path, { ua: IPHONE_UA, form: { consent: 'yes' } })],
      ['onward page after POST no', await visit(h(), 'POST', path, { ua: IPHONE_UA, form: { consent: 'no' } })],
      ['pixel page by cookie', await visit(h(), 'GET', path, { ua: IPHONE_UA, cookie: 'lp_consent=yes' })],
      ['pixel page, desktop', await visit(h(), 'GET', path, { cookie: 'lp_consent=yes' })],
    ] as const) {
      assert.equal(reply.status, 200, `${what}: ${reply.text}`);
      assertClean(reply, what);
      assert.match(reply.text, /location\.replace\(u\)/, what);
    }
    // The page still goes where the link says: the targeted URL, query merged, as a URL.
    const page = await visit(h(), 'GET', path, { ua: IPHONE_UA, cookie: 'lp_consent=yes' });
    const target = /\}\)\((".*?")\);<\/script>/s.exec(page.text);
    assert.ok(target, page.text);
    const url = new URL(JSON.parse(target[1]!));
    assert.equal(url.host, 'ios.example.com');
    assert.equal(url.searchParams.get('a'), PAYLOAD);
    assert.equal(decodeURIComponent(url.hash.slice(1)), PAYLOAD);
    assert.equal(url.searchParams.get('x'), PAYLOAD);
  });

  test('password form, wrong answer, lock-out and the page after the right answer stay inert', async () => {
    const { key } = await h().account();
    const link = await hostileLink(h(), key, { password: 'pa"ss<script>' });
    const path = `/${link.alias}?${QUERY}`;
    assertClean(await visit(h(), 'GET', path), 'password form');
    assertClean(await visit(h(), 'GET', `/${link.alias}/+?${QUERY}`), 'preview password form');
    const wrong = await visit(h(), 'POST', path, { form: { password: PAYLOAD } });
    assert.equal(wrong.status, 403);
    assertClean(wrong, 'wrong password');
    assert.ok(!wrong.text.includes('alert(1)'), 'the typed password was echoed back');
    const right = await visit(h(), 'POST', path, { ua: IPHONE_UA, form: { password: 'pa"ss<script>' } });
    assert.equal(right.status, 200);
    assertClean(right, 'onward page after the password');
    const unlocked = await visit(h(), 'POST', `/${link.alias}/+`, {
      cookie: cookiePair(setCookie(right, `lp_unlock_${link.id}`)!),
    });
    assert.equal(unlocked.status, 200);
    assertClean(unlocked, 'unlocked preview');
    for (let i = 0; i < 5; i++) await visit(h(), 'POST', path, { form: { password: 'no' } });
    const locked = await visit(h(), 'POST', path, { form: { password: 'no' } });
    assert.equal(locked.status, 429);
    assertClean(locked, 'rate-limited form');
  });

  test('expired, disabled and unknown links: inert pages, and redirects whose Location is a valid header', async () => {
    const { key } = await h().account();
    const expired = await hostileLink(h(), key, { expiration_date: '2001-01-01', expiration_time: '00:00' });
    const toUrl = await visit(h(), 'GET', `/${expired.alias}?${QUERY}`);
    assert.equal(toUrl.status, 302);
    assert.ok(toUrl.headers.get('location')!.startsWith('https://example.com/p?q='));
    const gone = await createLink(h(), key, {
      url: HOSTILE_URL,
      title: TITLE,
      expiration_date: '2001-01-01',
      expiration_time: '00:00',
    });
    const page410 = await visit(h(), 'GET', `/${gone.alias}?${QUERY}`);
    assert.equal(page410.status, 410);
    assertClean(page410, 'expired page');
    const off = await createLink(h(), key, { url: HOSTILE_URL, title: TITLE, disabled: 1 });
    for (const p of [`/${off.alias}?${QUERY}`, `/${off.alias}/+?${QUERY}`]) {
      const res = await visit(h(), 'GET', p);
      assert.equal(res.status, 404);
      assertClean(res, `disabled ${p}`);
    }
    for (const p of [
      `/nope-${Date.now()}?${QUERY}`,
      `/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E`,
      `/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E/+`,
    ]) {
      const res = await visit(h(), 'GET', p);
      assert.equal(res.status, 404, p);
      assertClean(res, `not found ${p}`);
    }
  });

  test('a destination with non-ASCII characters redirects (percent-encoded), not a 500', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://例え.jp/パス?q=ü&r=%41' });
    const res = await visit(h(), 'GET', `/${link.alias}`);
    assert.equal(res.status, 302, res.text);
    const location = res.headers.get('location')!;
    assert.equal(new URL(location).href, new URL('https://例え.jp/パス?q=ü&r=%41').href);
    const page = await visit(h(), 'GET', `/${link.alias}/+`);
    assert.equal(page.status, 200);
    assertSafePage(page, 'IDN preview');
  });

  test('a custom domain: hostile index and not-found pages are redirects with valid headers; its previews stay inert', async () => {
    const { key } = await h().account();
    const name = `go${Date.now().toString(36)}.example.com`;
    const made = await h().request('POST', '/api/v1/domains', {
      key,
      form: { name, index_page: `https://example.com/ïndex?q=${PAYLOAD}`, not_found_page: HOSTILE_URL },
    });
    assert.equal(made.status, 201, made.text);
    h().dns.publishTxt(made.body.data.verification.txt_name, made.body.data.verification.token);
    assert.equal((await h().request('POST', `/api/v1/domains/${made.body.data.id}/verify`, { key })).status, 200);
    const link = await hostileLink(h(), key, { domain: made.body.data.id });
    const root = await getOnHost(h(), '/', name);
    assert.equal(root.status, 302, root.text);
    assert.equal(new URL(root.headers.get('location')!).searchParams.get('q'), PAYLOAD);
    const missing = await getOnHost(h(), `/nope?x=${encodeURIComponent(PAYLOAD)}`, name);
    assert.equal(missing.status, 302, missing.text);
    assert.ok(missing.headers.get('location')!.startsWith('https://example.com/p?q='));
    const preview = await getOnHost(h(), `/${link.alias}/+`, name);
    assert.equal(preview.status, 200, preview.text);
    assertClean(preview, 'custom-domain preview');
    assert.ok(preview.text.includes(`https://${name}/${link.alias}`), 'the short URL names the domain');
  });

  test('a hostile Host header is not reflected into the preview', async () => {
    const { key } = await h().account();
    const link = await createLink(h(), key, { url: 'https://example.com/host', title: 'plain' });
    for (const host of ['x"><script>alert(1)</script>', "a'onmouseover=alert(1)"]) {
      const res = await getOnHost(h(), `/${link.alias}/+`, host);
      assert.ok(!res.text.includes('<script>alert'), `${host}: ${res.text}`);
      assert.doesNotMatch(res.text, /<[^>]*onmouseover=/i, `${host}: ${res.text}`);
      if (res.status === 200) assertClean(res, `preview on host ${host}`);
    }
  });
});
