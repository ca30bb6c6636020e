/**
 * The link form in a real Chromium: with JavaScript, targeting rows are added and taken out in
 * the page (no request) and the preview card follows the form; without it, a row button's round
 * trip keeps every field, the ticked pixels and the typed password included. Two columns from
 * 1024 px, one on a phone; axe in both themes with rows added by the script.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import { closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

/**
 * The requests the page makes while `act` runs, and until a timer of the page's own, due after the
 * preview's pause (PAUSE_MS in link-form.js), has run: the page runs its timers in the order they
 * fall due, so any refresh the act scheduled has sent its request by then, however slow the
 * machine.
 */
async function requestsDuring(page: Page, act: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (r: Request) => void seen.push(`${r.method()} ${r.url()}`);
  page.on('request', listen);
  try {
    await act();
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 700)));
  } finally {
    page.off('request', listen);
  }
  return seen;
}

/** Unfolds one of the form's folded sections by its summary, as a person would. */
const unfold = (page: Page, title: string) =>
  page.locator('details.form-section > summary').filter({ hasText: title }).click();

onEachEngineInBrowser('the link form in a browser', { env: { TRUST_PROXY: 'true' } }, (web) => {
  let key: string;
  let pixel: number;

  before(async () => {
    key = await apiKeyOf(web.h, web.email);
    const res = await web.h.request('POST', '/api/v1/pixels', {
      key,
      form: { name: 'Form pixel', type: 'facebook', value: '987654321' },
    });
    assert.equal(res.status, 201, res.text);
    pixel = res.body.data.id;
  });

  const linkByAlias = async (alias: string) => {
    const res = await web.h.request('GET', '/api/v1/links?per_page=100', { key });
    return res.body.data.find((l: { alias: string }) => l.alias === alias);
  };

  test(
    'with JavaScript: rows are added and taken out with no request; the preview follows the form',
    TIMEOUT,
    async () => {
      const { page } = web;
      // From the US as the server sees it (TRUST_PROXY): the card says where a US visitor goes.
      await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': '8.8.8.8' });
      try {
        await web.open('/links/new', 200, 'New link');
        await page.getByLabel('Destination URL').first().fill(`${web.dest.base}/everyone`);
        const preview = page.locator('#link-preview-card');
        await preview.getByText(`${web.dest.base}/everyone`).waitFor();
        // Choosing the list changes where visitors go: the card is fetched again, before the rows.
        await unfold(page, 'Targeting & rules');
        const refreshed = page.waitForResponse((r) => r.url().endsWith('/links/new/preview'));
        await page.getByLabel('Send visitors by').selectOption({ label: 'Country' });
        await refreshed;

        const requests = await requestsDuring(page, async () => {
          await page.getByRole('button', { name: 'Add a country' }).click();
          await page.getByRole('button', { name: 'Add a country' }).click();
          await page.getByRole('button', { name: 'Add a platform' }).click();
        });
        assert.deepEqual(requests, []);
        assert.equal(await page.locator('fieldset.target-row').count(), 3);
        assert.equal(await page.locator('select[name="country[1][key]"]').count(), 1);
        assert.deepEqual(await page.locator('[data-target-list="country"] .target-row > legend').allInnerTexts(), [
          'Country 1',
          'Country 2',
        ]);
        // The new row has focus, its label tied to its control.
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'platform[0][key]');
        await page.getByLabel('Platform', { exact: true }).first().selectOption('Android');
        await page.locator('#f-platform-0-value').fill(`${web.dest.base}/android`);

        // Taking out the first country renumbers the one left: its names, its ids and its labels.
        await page.getByRole('button', { name: 'Remove country 1' }).click();
        assert.equal(await page.locator('[data-target-list="country"] .target-row').count(), 1);
        assert.deepEqual(await page.locator('[data-target-list="country"] .target-row > legend').allInnerTexts(), [
          'Country 1',
        ]);
        await page.locator('select[name="country[0][key]"]').selectOption('US');
        await page.locator('#f-country-0-value').fill(`${web.dest.base}/us`);
        await preview.getByText(`${web.dest.base}/us`).waitFor();
        assert.match(await preview.innerText(), /Country: United States/);

        await page.getByLabel('Alias').fill('scripted-rows');
        await preview.getByRole('img', { name: 'QR code for http://short.test/scripted-rows' }).waitFor();
        await web.everyTheme('rows added by the script');

        await page.getByRole('button', { name: 'Create link' }).last().click();
        await page.waitForURL(/\/links\/\d+\/edit$/);
        const link = await linkByAlias('scripted-rows');
        assert.deepEqual(link.country_target, [{ key: 'US', value: `${web.dest.base}/us` }]);
        assert.deepEqual(link.platform_target, [{ key: 'Android', value: `${web.dest.base}/android` }]);
      } finally {
        await page.context().setExtraHTTPHeaders({});
      }
    },
  );

  test(
    'without JavaScript: tick a pixel, type a password, choose Country, add a country — everything is kept',
    TIMEOUT,
    async () => {
      const page = await newPage({ javaScriptEnabled: false });
      await page.context().addCookies(await web.page.context().cookies());
      await page.goto(`${web.h.baseUrl}/links/new`);
      await page.getByLabel('Destination URL').first().fill(`${web.dest.base}/kept`);
      await page.getByLabel('Alias').fill('kept-no-script');
      await unfold(page, 'Tracking');
      await page.getByLabel(/Form pixel/).check();
      await unfold(page, 'Protection');
      await page.getByLabel('Link password', { exact: true }).fill('door-typed');
      await unfold(page, 'Targeting & rules');
      await page.getByLabel('Send visitors by').selectOption({ label: 'Country' });
      await page.getByRole('button', { name: 'Add a country' }).click();
      await page.locator('select[name="country[0][key]"]').waitFor();
      assert.equal(await page.getByLabel(/Form pixel/).isChecked(), true);
      assert.equal(await page.getByLabel('Link password', { exact: true }).inputValue(), 'door-typed');
      assert.equal(await page.getByLabel('Send visitors by').inputValue(), '1');
      assert.doesNotMatch(page.url(), /door-typed/);
      await page.locator('select[name="country[0][key]"]').selectOption('DE');
      await page.locator('#f-country-0-value').fill(`${web.dest.base}/de`);
      await page.getByRole('button', { name: 'Create link' }).last().click();
      await page.waitForURL(/\/links\/\d+\/edit$/);
      const link = await linkByAlias('kept-no-script');
      assert.deepEqual(
        link.pixels.map((p: { id: number }) => p.id),
        [pixel],
      );
      assert.equal(link.password, true);
      assert.equal(link.target_type, 1);
      await page.close();
    },
  );

  test('two columns from 1024 px (the card beside the form, sticky), one on a phone', TIMEOUT, async () => {
    const page = await newPage();
    await page.context().addCookies(await web.page.context().cookies());
    await page.goto(`${web.h.baseUrl}/links/new`);
    const form = page.locator('form.link-form');
    const card = page.locator('aside.link-preview');
    const wide = [(await form.boundingBox())!, (await card.boundingBox())!];
    assert.ok(wide[1]!.x >= wide[0]!.x + wide[0]!.width, 'the card is right of the form at 1280 px');
    assert.equal(await card.evaluate((el) => getComputedStyle(el).position), 'sticky');
    await page.setViewportSize({ width: 375, height: 800 });
    const narrow = [(await form.boundingBox())!, (await card.boundingBox())!];
    assert.ok(narrow[1]!.y >= narrow[0]!.y + narrow[0]!.height, 'the card is under the form at 375 px');
    assert.equal(await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth), 0);
    await page.close();
  });
});
