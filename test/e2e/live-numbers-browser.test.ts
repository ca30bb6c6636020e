/**
 * Live numbers in a real Chromium (docs/web.md, docs/design/statistics.md): with the dashboard or a link's
 * statistics open, a visit of the link changes the totals within 2 s, without a reload, while
 * the rollups wait a minute (STATS_FLUSH_INTERVAL_MS). Without JavaScript the page is as loaded.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** The texts of every live total on the page, in document order. */
const liveTotals = (page: Page) => page.locator('[data-metric="clicks"]').allInnerTexts();

onEachEngineInBrowser(
  'live numbers in a browser',
  { overrides: { tuning: { STATS_FLUSH_INTERVAL_MS: 60000 } } },
  (web) => {
    let alias: string;
    let linkId: number;

    const visitLink = async () => {
      const res = await fetch(`${web.h.baseUrl}/${alias}`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_UA },
      });
      assert.equal(res.status, 302);
    };

    /** Marks the document, so that a reload (a new document) would be seen. */
    const markDocument = (page: Page) =>
      page.evaluate(() => document.documentElement.setAttribute('data-test-loaded', 'once'));
    const sameDocument = async (page: Page) =>
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-test-loaded')), 'once');

    test('the dashboard: a click counts in the totals and the link’s row within 2 s, no reload', TIMEOUT, async () => {
      const key = await apiKeyOf(web.h, web.email);
      const made = await web.h.request('POST', '/api/v1/links', { key, form: { url: `${web.dest.base}/live` } });
      assert.equal(made.status, 201, made.text);
      alias = made.body.data.alias as string;
      linkId = made.body.data.id as number;
      await visitLink();
      await web.h.server.container.visits.sink.flush();
      const page = web.page;
      await web.open('/dashboard', 200, 'Dashboard');
      await markDocument(page);
      const before = await liveTotals(page);
      assert.ok(before.length >= 3, `the totals and the link's rows: ${before.join(', ')}`);
      // The stream is open (and so the server has a listener for this account).
      await page.locator('[data-metric="clicks"][data-live]').first().waitFor();
      const started = Date.now();
      await visitLink();
      await page.waitForFunction(
        (was) =>
          [...document.querySelectorAll('[data-metric="clicks"]')].every(
            (e, i) => Number(e.textContent) === was[i]! + 1,
          ),
        before.map(Number),
        {
          timeout: 2000,
        },
      );
      assert.ok(Date.now() - started < 2000);
      await sameDocument(page);
      assert.equal(
        await page.locator(`[data-metric="clicks"][data-link-id="${linkId}"]`).first().getAttribute('data-value'),
        String(Number(before.at(-1)) + 1),
      );
    });

    test('a link’s statistics: its total counts on, no reload', TIMEOUT, async () => {
      const page = web.page;
      await web.open(`/stats/${linkId}`, 200, /Statistics|Stats/);
      await markDocument(page);
      const total = page.locator('[data-stat="total"][data-metric="clicks"]');
      const was = Number(await total.innerText());
      await page.locator('[data-metric="clicks"][data-live]').first().waitFor();
      await visitLink();
      await page.waitForFunction(
        (n) => document.querySelector('[data-stat="total"]')?.textContent === String(n),
        was + 1,
        { timeout: 2000 },
      );
      await sameDocument(page);
    });
  },
);
