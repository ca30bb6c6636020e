/**
 * The visitor pages of the redirect in a real Chromium: each one passes axe (WCAG 2.2 AA) in the
 * light and dark themes and at 390 px, works with JavaScript off, and can be used with the
 * keyboard alone. The destination is a server of this test on 127.0.0.1; nothing else is reached.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { Page } from 'playwright-core';
import { ENGINES, startHarness, type Harness } from '../support/harness.ts';
import { expectPhoneReady } from '../support/phone-check.ts';
import {
  blockedRequests,
  checkEveryTheme,
  closeBrowser,
  expectNoAxeViolations,
  newPage,
  tabTo,
  themeCheckOn,
} from '../support/browser.ts';

after(closeBrowser);

/** Pages with known faults, served by the destination, to show the checks are not vacuous. */
const FLAWED: Record<string, string> = {
  '/dim-in-the-dark': `<title>Dim</title><style>p{color:#111;background:#fff}@media (prefers-color-scheme:dark){p{color:#333;background:#222}}</style>
<main><h1>Dim</h1><p>Readable in light only</p></main>`,
  '/too-wide': '<title>Wide</title><main><h1>Wide</h1><div style="width:600px">Wider than a phone</div></main>',
  '/faint-field':
    '<title>Faint</title><main><h1>Faint</h1><input id="f" aria-label="Name" style="border:1px solid #ddd;background:none"></main>',
  '/cramped-on-a-phone': `<title>Cramped</title><style>nav a{display:inline-block;padding:12px}@media (max-width:600px){nav a{width:8px;height:8px;padding:0;overflow:hidden}}</style>
<main><h1>Cramped</h1><nav aria-label="Pages"><a href="/a">A</a><a href="/b">B</a></nav></main>`,
  '/unlabelled':
    '<title>Unlabelled</title><main><h1>Unlabelled</h1><img src="https://example.com/a.png"><input></main>',
};

// A hung page or browser fails its test instead of holding the whole run.
const TIMEOUT = { timeout: 60_000 };

// On both engines: each page answers from the link its engine stored.
for (const engine of ENGINES) {
  describe(
    `the visitor pages in a browser: accessible, without JavaScript, by keyboard [${engine.name}]`,
    { skip: engine.skip ?? false },
    () => {
      // The themes and axe on SQLite's pass only.
      const themes = themeCheckOn(engine.name);

      let h: Harness;
      let key: string;
      let pixel: number;
      let destination: HttpServer;
      let destBase: string;
      const hits: string[] = [];

      before(async () => {
        // `ask` so that a link with a pixel shows the consent page; a custom scheme for the app page.
        h = await startHarness(engine.name, { env: { PIXEL_CONSENT: 'ask', APP_SCHEMES: 'lpxtest' } });
        key = (await h.account()).key;
        const px = await h.request('POST', '/api/v1/pixels', {
          key,
          form: { name: 'fb', type: 'facebook', value: '123456789' },
        });
        assert.equal(px.status, 201, px.text);
        pixel = px.body.data.id;
        destination = createServer((req, res) => {
          hits.push(req.url ?? '');
          const body = FLAWED[req.url ?? ''] ?? '<title>Destination</title><main><h1>Arrived</h1></main>';
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<!doctype html><html lang="en">${body}</html>`);
        });
        await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
        const address = destination.address();
        destBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      });

      after(async () => {
        await h?.close();
        await new Promise((resolve) => (destination ? destination.close(resolve) : resolve(undefined)));
      });

      /** A fresh link to `${destBase}/${path}`; its visitor URL. */
      async function link(path: string, extra: Record<string, unknown> = {}): Promise<string> {
        const made = await h.request('POST', '/api/v1/links', { key, form: { url: `${destBase}/${path}`, ...extra } });
        assert.equal(made.status, 201, made.text);
        return `${h.baseUrl}/${made.body.data.alias}`;
      }

      async function open(page: Page, url: string, status: number, heading: string): Promise<void> {
        const res = await page.goto(url);
        assert.equal(res?.status(), status, url);
        assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), heading);
      }

      async function arrive(page: Page, path: string): Promise<void> {
        await page.waitForURL(`${destBase}/${path}`);
        assert.equal(await page.title(), 'Destination');
        assert.ok(hits.includes(`/${path}`), `the destination never saw /${path}`);
        assert.deepEqual(blockedRequests(page), []);
      }

      const visitorPages: { name: string; make: () => Promise<string>; status: number; heading: string }[] = [
        { name: 'not found', make: async () => `${h.baseUrl}/no-such-link`, status: 404, heading: 'Link not found' },
        {
          name: 'expired',
          make: () => link('expired', { expiration_date: '2020-01-01', expiration_time: '00:00' }),
          status: 410,
          heading: 'This link has expired',
        },
        {
          name: 'disabled',
          make: () => link('disabled', { disabled: 1 }),
          status: 404,
          heading: 'This link has been disabled',
        },
        {
          name: 'password',
          make: () => link('p-axe', { password: 'letmein' }),
          status: 200,
          heading: 'This link is protected',
        },
        {
          name: 'preview',
          make: async () => `${await link('previewed')}/+`,
          status: 200,
          heading: 'Where this link goes',
        },
        { name: 'consent', make: () => link('c-axe', { pixels: [pixel] }), status: 200, heading: 'Allow tracking?' },
      ];

      for (const p of visitorPages) {
        test(
          `${p.name}: no axe violation in light, dark and at 390 px; the same page without JavaScript`,
          TIMEOUT,
          async () => {
            const url = await p.make();
            const page = await newPage();
            await open(page, url, p.status, p.heading);
            await themes(page);
            assert.deepEqual(blockedRequests(page), []);
            await page.close();
            // axe needs the page's JavaScript; with it off, the page must still be served whole.
            const plain = await newPage({ javaScriptEnabled: false });
            await open(plain, url, p.status, p.heading);
            await plain.close();
          },
        );
      }

      test(
        'password, wrong answer: the error is announced, tied to the field, and passes axe in every theme',
        TIMEOUT,
        async () => {
          const page = await newPage();
          await open(page, await link('p-wrong', { password: 'letmein' }), 200, 'This link is protected');
          await page.getByLabel('Password').fill('nope');
          await page.getByRole('button', { name: 'Continue' }).click();
          await page.getByRole('alert').waitFor();
          const field = page.getByLabel('Password');
          assert.equal(await field.getAttribute('aria-invalid'), 'true');
          assert.equal(await field.getAttribute('aria-describedby'), await page.getByRole('alert').getAttribute('id'));
          await themes(page, { label: 'wrong password' });
          await page.close();
        },
      );

      test('password, JavaScript off: the form posts, unlocks and reaches the destination', TIMEOUT, async () => {
        const page = await newPage({ javaScriptEnabled: false });
        await open(page, await link('p-nojs', { password: 'letmein' }), 200, 'This link is protected');
        await page.getByLabel('Password').fill('letmein');
        await page.getByRole('button', { name: 'Continue' }).click();
        await arrive(page, 'p-nojs');
        await page.close();
      });

      test(
        'password, keyboard only on a phone: a wrong try, then Tab, type, Enter reaches the destination',
        TIMEOUT,
        async () => {
          const page = await newPage({ viewport: 'mobile' });
          await open(page, await link('p-keys', { password: 'letmein' }), 200, 'This link is protected');
          await tabTo(page, 'Password');
          await page.keyboard.type('wrong');
          await page.keyboard.press('Enter');
          await page.getByRole('alert').waitFor();
          // After the error, Tab moves on to the button and round again to the field.
          await tabTo(page, 'Continue');
          await tabTo(page, 'Password');
          await page.keyboard.type('letmein');
          await page.keyboard.press('Enter');
          await arrive(page, 'p-keys');
          await page.close();
        },
      );

      test(
        'consent, keyboard only with JavaScript off: Tab to Decline, Enter reaches the destination',
        TIMEOUT,
        async () => {
          const page = await newPage({ javaScriptEnabled: false });
          await open(page, await link('c-keys', { pixels: [pixel] }), 200, 'Allow tracking?');
          await tabTo(page, 'Decline');
          await page.keyboard.press('Enter');
          await arrive(page, 'c-keys');
          await page.close();
        },
      );

      test('preview, keyboard only: Tab to the destination link, Enter follows it', TIMEOUT, async () => {
        const page = await newPage({ colorScheme: 'dark' });
        await open(page, `${await link('via-preview')}/+`, 200, 'Where this link goes');
        await tabTo(page, 'Go to the destination');
        await page.keyboard.press('Enter');
        await arrive(page, 'via-preview');
        await page.close();
      });

      test(
        'app page, on a phone: with no app for the custom scheme it goes on to the web URL by itself',
        TIMEOUT,
        async () => {
          const page = await newPage({ viewport: 'mobile' });
          // The app page itself never finishes loading here: its script's navigation to the scheme stays pending.
          await page.goto(await link('app-fallback', { android_url: 'lpxtest://open/item' }), { waitUntil: 'commit' });
          // Waiting may first see the scheme's own navigation fail (no app): wait on through it.
          for (let tries = 0; ; tries++) {
            try {
              await page.waitForURL(`${destBase}/app-fallback`);
              break;
            } catch (error) {
              if (tries >= 3 || !/ERR_ABORTED/.test(String(error))) throw error;
            }
          }
          await arrive(page, 'app-fallback');
          await page.close();
        },
      );

      test(
        'app page, JavaScript off, keyboard only: both links shown; Tab to the web link, Enter follows it',
        TIMEOUT,
        async () => {
          const url = await link('app-nojs', { android_url: 'lpxtest://open/item' });
          const page = await newPage({ viewport: 'mobile', javaScriptEnabled: false });
          await open(page, url, 200, 'Opening the app…');
          assert.equal(
            await page.getByRole('link', { name: 'Open in the app' }).getAttribute('href'),
            'lpxtest://open/item',
          );
          await tabTo(page, /^Continue to 127\.0\.0\.1/);
          await page.keyboard.press('Enter');
          await arrive(page, 'app-nojs');
          await page.close();
        },
      );

      // The checks' own test needs no storage: once.
      if (engine.name === 'sqlite') {
        test(
          'the checks themselves: they catch a dark-only contrast fault, sideways scrolling, targets cramped on a phone, a faint field, unlabelled controls; they block the outside',
          TIMEOUT,
          async () => {
            const page = await newPage();
            await page.goto(`${destBase}/dim-in-the-dark`);
            await assert.rejects(
              checkEveryTheme(page),
              /\/dim-in-the-dark \[dark\]:\n {2}- color-contrast \(serious\): [^\n]+\n.+\n {6}p: Element has insufficient color contrast of 1\.\d+ /,
            );
            // The phone check in dark runs axe's colour rules alone (every-route-browser): they catch it too.
            await page.emulateMedia({ colorScheme: 'dark' });
            await assert.rejects(
              expectPhoneReady(page, 'dim', { theme: 'dark' }),
              /\[dim\]:[\s\S]*\n {2}- color-contrast \(serious\): /,
            );
            await page.emulateMedia({ colorScheme: null });
            await page.goto(`${destBase}/too-wide`);
            await assert.rejects(checkEveryTheme(page), /\[light, 390 px\] scrolls sideways by 2\d\d px/);
            // At 390 px axe checks the rules a width changes (the rest it read at 1280 px): they catch it.
            await page.goto(`${destBase}/cramped-on-a-phone`);
            await assert.rejects(
              checkEveryTheme(page),
              /\/cramped-on-a-phone \[light, 390 px\]:\n {2}- target-size \(serious\): /,
            );
            await page.goto(`${destBase}/faint-field`);
            await assert.rejects(
              checkEveryTheme(page),
              /\[light\] form fields hard to make out \(WCAG 1\.4\.11, 3:1 needed\):\n {2}input#f: 1\.\d\d:1/,
            );
            await page.goto(`${destBase}/unlabelled`);
            await assert.rejects(
              expectNoAxeViolations(page),
              (e: Error) => /- image-alt \(critical\)/.test(e.message) && /- label \(critical\)/.test(e.message),
            );
            const excepted = [
              { ruleId: 'image-alt', reason: 'a fixture' },
              { ruleId: 'label', reason: 'a fixture' },
            ];
            await expectNoAxeViolations(page, { exceptions: excepted });
            assert.deepEqual(blockedRequests(page), ['https://example.com/a.png']);
            await assert.rejects(
              tabTo(page, 'Nowhere', { max: 3 }),
              /Tab never reached "Nowhere" .* in 3 presses; focus went: \(nothing\) → textbox ""/,
            );
            await page.close();
          },
        );
      }
    },
  );
}
