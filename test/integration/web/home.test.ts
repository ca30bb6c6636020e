import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';

onEachEngine('web: / and what every page links in its head', (h) => {
  test('signed out: what linkpix is, with Sign in and Sign up', async () => {
    const page = await new WebClient(h().baseUrl).get('/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const main = /<main[\s\S]*<\/main>/.exec(page.text)?.[0] ?? '';
    for (const word of ['Short links', 'QR codes', 'Pixels', 'Statistics', 'API'])
      assert.ok(main.includes(`<h3>${word}</h3>`), word);
    assert.match(main, /<a class="button" href="\/login">Sign in<\/a>/);
    assert.match(main, /<a class="button secondary" href="\/signup">Create an account<\/a>/);
    assert.match(page.text, /<a class="brand" href="\/">linkpix<\/a>/);
  });

  test('signed in: / is the dashboard', async () => {
    const { client } = await signedUp(h().baseUrl);
    const res = await client.get('/');
    assert.equal(res.status, 303);
    assert.equal(res.location, '/dashboard');
  });

  test('/favicon.ico is an icon file, /favicon.svg an SVG, /manifest.webmanifest names the app and its icons', async () => {
    const ico = await fetch(`${h().baseUrl}/favicon.ico`);
    assert.equal(ico.status, 200);
    assert.equal(ico.headers.get('content-type'), 'image/x-icon');
    const bytes = Buffer.from(await ico.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image of 32×32 at 32 bits.
    assert.deepEqual(
      [bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7], bytes.readUInt16LE(12)],
      [0, 1, 1, 32, 32, 32],
    );
    assert.equal(bytes.readUInt32LE(18) + bytes.readUInt32LE(14), bytes.length);

    const svg = await fetch(`${h().baseUrl}/favicon.svg`);
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.match(await svg.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const manifest = await fetch(`${h().baseUrl}/manifest.webmanifest`);
    assert.equal(manifest.status, 200);
    assert.equal(manifest.headers.get('content-type'), 'application/manifest+json; charset=utf-8');
    const body = (await manifest.json()) as { name: string; theme_color: string; icons: { src: string }[] };
    assert.equal(body.name, 'linkpix');
    assert.match(body.theme_color, /^#[0-9a-f]{6}$/);
    assert.deepEqual(
      body.icons.map((i) => i.src),
      ['/favicon.svg', '/favicon.ico'],
    );
  });

  test("an app page's policy lets it load its manifest and icons, from its own origin only", async () => {
    const page = await new WebClient(h().baseUrl).get('/login');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /manifest-src 'self'/);
    assert.match(csp, /img-src 'self'/);
  });

  test("/docs carries linkpix's name and mark, which leads back to the app", async () => {
    const page = await fetch(`${h().baseUrl}/docs/static/index.html`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<title>linkpix API<\/title>/);
    assert.match(html, /href="\.\/theme\/favicon\.svg"|href="[^"]*\/theme\/favicon\.svg"/);
    assert.match(html, /<script src="[^"]*theme\/linkpix\.js"/);
    const init = await (await fetch(`${h().baseUrl}/docs/static/swagger-initializer.js`)).text();
    assert.ok(init.includes(`data:image/svg+xml;base64,`), 'the logo');
    assert.ok(
      Buffer.from(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init)![1]!, 'base64')
        .toString()
        .includes('>linkpix</text>'),
    );
    assert.match(init, /img\.href = '\/'/);
  });
});

onEachEngine(
  'web: / with sign-up closed',
  (h) => {
    test('signed out: Sign in, and no Sign up', async () => {
      const page = await new WebClient(h().baseUrl).get('/');
      assert.equal(page.status, 200);
      const main = /<main[\s\S]*<\/main>/.exec(page.text)?.[0] ?? '';
      assert.match(main, /href="\/login"/);
      assert.doesNotMatch(main, /href="\/signup"/);
    });
  },
  { env: { SIGNUP: 'closed' } },
);
