/**
 * Workspace analytics in a real Chromium (docs/design/statistics.md): /dashboard/analytics and
 * the dashboard's chart and most-clicked list are read again once a click is written, without a
 * reload of the page; the analytics page's tables and CSV links are there without JavaScript.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

const markDocument = (page: Page) =>
  page.evaluate(() => document.documentElement.setAttribute('data-test-loaded', 'once'));
const sameDocument = async (page: Page) =>
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-test-loaded')), 'once');

onEachEngineInBrowser(
  'workspace analytics, live, in a browser',
  // PostgreSQL's link counters (the most-clicked list's order) settle on their own round.
  { overrides: { tuning: { STATS_FLUSH_INTERVAL_MS: 200, CLICK_COUNT_SETTLE_INTERVAL_MS: 1000 } } },
  (web) => {
    let alias: string;

    const visitLink = async (query = '') => {
      const res = await fetch(`${web.h.baseUrl}/${alias}${query}`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_UA },
      });
      assert.equal(res.status, 302);
    };

    test('the dashboard: the chart and the most-clicked list take in a first click, no reload', TIMEOUT, async () => {
      const key = await apiKeyOf(web.h, web.email);
      const made = await web.h.request('POST', '/api/v1/links', {
        key,
        form: { url: `${web.dest.base}/live?utm_source=news`, 'tags[]': ['Launch'] },
      });
      assert.equal(made.status, 201, made.text);
      alias = made.body.data.alias as string;
      const page = web.page;
      await web.open('/dashboard', 200, 'Dashboard');
      await markDocument(page);
      const top = page.locator('#dashboard-top');
      assert.equal(await top.locator('tbody tr').count(), 0);
      await page.locator('[data-metric="clicks"][data-live]').first().waitFor();
      await visitLink();
      await top.locator('tbody tr').first().waitFor({ timeout: 15_000 });
      assert.equal(await page.locator('#dashboard-chart').getAttribute('data-live-total'), '1');
      await sameDocument(page);
    });

    test(
      '/dashboard/analytics: a QR scan arrives in the totals, the tag, UTM and QR tables, no reload',
      TIMEOUT,
      async () => {
        const page = web.page;
        await web.open('/dashboard/analytics', 200, 'Analytics');
        await markDocument(page);
        const region = page.locator('#analytics-live');
        const was = Number(await region.getAttribute('data-live-total'));
        await page.locator('[data-metric="clicks"][data-live]').first().waitFor();
        await visitLink('?qr=1');
        await page.waitForFunction(
          (n) => Number(document.querySelector('#analytics-live')?.getAttribute('data-live-total')) === n,
          was + 1,
          { timeout: 15_000 },
        );
        await sameDocument(page);
        const text = await region.innerText();
        for (const expected of ['Launch', 'news', 'QR code scans', alias]) assert.ok(text.includes(expected), expected);
        const csv = await page.locator('a[href^="/dashboard/analytics/export/tags"]').getAttribute('href');
        const res = await page.request.get(`${web.h.baseUrl}${csv}`);
        assert.equal(res.status(), 200);
        assert.match(await res.text(), /^value,count\r?\nLaunch,2/);
      },
    );
  },
);
