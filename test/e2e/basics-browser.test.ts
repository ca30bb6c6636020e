/**
 * The entry points in a real Chromium: the landing page signed out (axe in both themes, no
 * sideways scrolling), the dashboard and the links signed in, and /docs with linkpix's mark
 * leading back to the app; on each, no console error, no failed request (the icons and the
 * manifest included).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { blockedRequests, closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf, expectNoSidewaysScrollAt320 } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

/** Every console error, uncaught error and failed or refused request of the page from now on. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // The live numbers' stream is cut when the page is left: the browser counts that as aborted.
    if (new URL(request.url()).pathname === '/account/live' && request.failure()?.errorText === 'net::ERR_ABORTED')
      return;
    problems.push(`failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

// The writer's longest interval: a click is written when a test flushes the sink, so no test here
// leans on how soon the writer gets to it on a loaded machine.
const WRITES_WHEN_FLUSHED = { CLICK_FLUSH_INTERVAL_MS: '60000' };

onEachEngineInBrowser(
  'the entry points in a browser: /, /links, /docs, the icons',
  { env: WRITES_WHEN_FLUSHED },
  (web) => {
    // The landing page, its icons and /docs read nothing from the database: one engine's pass.
    web.once(
      'signed out, / says what linkpix is and leads to Sign in and Sign up; its icons load',
      TIMEOUT,
      async () => {
        const page = await newPage();
        try {
          const problems = watchProblems(page);
          const res = await page.goto(`${web.h.baseUrl}/`, { waitUntil: 'networkidle' });
          assert.equal(res?.status(), 200);
          assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Short links and tracking pixels');
          await page.getByRole('main').getByRole('link', { name: 'Sign in' }).waitFor();
          await page.getByRole('main').getByRole('link', { name: 'Create an account' }).waitFor();
          for (const path of ['/favicon.ico', '/favicon.svg', '/manifest.webmanifest']) {
            assert.equal((await page.request.get(web.h.baseUrl + path)).status(), 200, path);
          }
          await web.themes(page);
          await expectNoSidewaysScrollAt320(page);
          assert.deepEqual(problems, []);
          assert.deepEqual(blockedRequests(page), []);
        } finally {
          await page.close();
        }
      },
    );

    test('signed in, / is the dashboard, and /links opens without a console error', TIMEOUT, async () => {
      const problems = watchProblems(web.page);
      await web.page.goto(`${web.h.baseUrl}/`, { waitUntil: 'networkidle' });
      assert.equal(new URL(web.page.url()).pathname, '/dashboard');
      await web.page.goto(`${web.h.baseUrl}/links`, { waitUntil: 'networkidle' });
      await web.assertHeading('Links');
      assert.deepEqual(problems, []);
    });

    web.once("/docs shows linkpix's mark, which leads back to the app, without a console error", TIMEOUT, async () => {
      const page = await newPage();
      try {
        const problems = watchProblems(page);
        await page.goto(`${web.h.baseUrl}/docs`, { waitUntil: 'networkidle' });
        assert.equal(await page.title(), 'linkpix API');
        const mark = page.locator('.topbar a.link img[alt="linkpix"]');
        await mark.waitFor();
        assert.match((await mark.getAttribute('src')) ?? '', /^data:image\/svg\+xml;base64,/);
        await page.locator('.topbar a.link[href="/"]').click();
        await page.waitForURL(`${web.h.baseUrl}/`);
        assert.deepEqual(problems, []);
        assert.deepEqual(blockedRequests(page), []);
      } finally {
        await page.close();
      }
    });

    test(
      'Top referrers at 1280 px: a long referrer wraps, its Clicks and Share columns stay in view',
      TIMEOUT,
      async () => {
        const key = await apiKeyOf(web.h, web.email);
        const made = await web.h.request('POST', '/api/v1/links', { key, form: { url: `${web.dest.base}/long` } });
        assert.equal(made.status, 201, made.text);
        const host = `${'newslettercampaigntracking'.repeat(2)}.maildeliveryserviceofalongname.example`;
        const res = await fetch(`${web.h.baseUrl}/${made.body.data.alias}`, {
          redirect: 'manual',
          headers: { referer: `https://${host}/`, 'user-agent': CHROME, accept: 'text/html' },
        });
        assert.equal(res.status, 302);
        // The click is recorded before the redirect is answered; the sink's flush is its write.
        await web.h.server.container.visits.sink.flush();
        const page = web.page;
        await page.goto(`${web.h.baseUrl}/stats/${made.body.data.id}`);
        const table = page.locator('table.stats-table', { has: page.locator('th', { hasText: host }) });
        await table.waitFor();
        const fits = await table.evaluate((t) => {
          const wrap = t.closest('.table-wrap') ?? t.parentElement!;
          const share = t.querySelector('thead th:last-child')!.getBoundingClientRect();
          return {
            scrolls: wrap.scrollWidth > wrap.clientWidth,
            shareRight: share.right,
            wrapRight: wrap.getBoundingClientRect().right,
          };
        });
        assert.equal(fits.scrolls, false);
        assert.ok(fits.shareRight <= fits.wrapRight + 0.5, JSON.stringify(fits));
      },
    );
  },
);
