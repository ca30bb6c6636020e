/**
 * A warm start in a real Chromium: the dashboard's first-run checklist for a new account, ticked
 * as things are done and dismissed with JavaScript off; the link form's folded sections with
 * their summaries; a UTM template applied in the page with JavaScript (no request, no
 * navigation) and by the form's round trip without it. Screenshots at 1280 and 375 px go to
 * WARM_SCREENSHOTS when set.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import { closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };

async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.WARM_SCREENSHOTS;
  if (!dir) return;
  const size = page.viewportSize();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** The checklist's steps as shown: name → ticked; null when there is no checklist. */
async function steps(page: Page): Promise<Record<string, boolean> | null> {
  if ((await page.locator('section.first-steps').count()) === 0) return null;
  return page
    .locator('.first-steps-list > li')
    .evaluateAll((items) =>
      Object.fromEntries(items.map((li) => [li.getAttribute('data-step'), li.classList.contains('done')])),
    );
}

const unfold = (page: Page, title: string) =>
  page.locator('details.form-section > summary').filter({ hasText: title }).click();

onEachEngineInBrowser(
  'a warm start in a browser',
  { env: { TRUST_PROXY: 'true', CLICK_FLUSH_INTERVAL_MS: '50' } },
  (web) => {
    test('a new account: the checklist, ticked as a link is made, visited and a key made', TIMEOUT, async () => {
      const { page } = web;
      await web.open('/dashboard', 200, 'Dashboard');
      assert.deepEqual(await steps(page), {
        shorten: false,
        visit: false,
        live: false,
        domain: false,
        key: false,
        invite: false,
      });
      assert.equal(await page.locator('svg[aria-labelledby^="clicks-30-days"]').count(), 0, 'no empty chart');
      await page.getByText('No clicks in the last 30 days.').waitFor();
      await web.everyTheme('the checklist, nothing done');
      await shots(page, 'dashboard-new');

      await page.getByLabel('URL', { exact: true }).fill(`${web.dest.base}/first`);
      await page.getByLabel('Alias').fill('first-warm');
      await page.getByRole('button', { name: 'Shorten' }).click();
      await page.getByRole('status').filter({ hasText: 'Short link created' }).waitFor();
      assert.equal((await steps(page))?.shorten, true);
      assert.equal((await steps(page))?.visit, false);

      // The live step's number counts the visit while the dashboard stays open.
      const live = page.locator('.first-steps-list > li[data-step="live"] strong[data-metric="clicks"]');
      await page.waitForFunction(() => document.querySelector('[data-metric="clicks"][data-live]') !== null);
      const visitor = await newPage();
      await visitor.goto(`${web.h.baseUrl}/first-warm`);
      await visitor.waitForURL(`${web.dest.base}/first`);
      await visitor.close();
      await page.waitForFunction(
        () =>
          document.querySelector('.first-steps-list > li[data-step="live"] strong[data-metric="clicks"]')
            ?.textContent === '1',
      );
      assert.equal(await live.innerText(), '1');
      // The click is written a moment after the redirect: the ticks follow at a reload.
      for (let i = 0; i < 40; i++) {
        await page.reload();
        if ((await steps(page))?.visit) break;
        await page.waitForTimeout(250);
      }
      assert.equal((await steps(page))?.visit, true);
      assert.equal((await steps(page))?.live, true);
      await page.locator('svg[aria-labelledby^="clicks-30-days"]').first().waitFor();

      await apiKeyOf(web.h, web.email);
      await page.reload();
      assert.equal((await steps(page))?.key, true);
      await web.everyTheme('the checklist, four done');
      await shots(page, 'dashboard-ticked');
    });

    test('Dismiss with JavaScript off: gone, and gone after a reload', TIMEOUT, async () => {
      const page = await newPage({ javaScriptEnabled: false });
      await page.context().addCookies(await web.page.context().cookies());
      await page.goto(`${web.h.baseUrl}/dashboard`);
      assert.notEqual(await steps(page), null);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await page.waitForURL(`${web.h.baseUrl}/dashboard`);
      await page.getByRole('status').filter({ hasText: 'The checklist is gone' }).waitFor();
      assert.equal(await steps(page), null);
      await page.reload();
      assert.equal(await steps(page), null);
      await page.close();
    });

    test('the link form: sections folded with what is set; an error opens its section', TIMEOUT, async () => {
      const { page } = web;
      const key = await apiKeyOf(web.h, web.email);
      const made = await web.h.request('POST', '/api/v1/links', {
        key,
        json: {
          url: `${web.dest.base}/set?utm_source=news`,
          alias: 'sections-set',
          tags: ['spring', 'news'],
          password: 'door',
          expiration_date: '2027-01-01',
          expiration_time: '09:30',
        },
      });
      assert.equal(made.status, 201, made.text);
      await web.open(`/links/${made.body.data.id}/edit`, 200, 'Edit link');
      const summaries = await page
        .locator('details.form-section')
        .evaluateAll((all) =>
          all.map((d) => [
            d.querySelector('.form-section-title')?.textContent,
            d.querySelector('.form-section-summary')?.textContent,
            (d as HTMLDetailsElement).open,
          ]),
        );
      assert.deepEqual(summaries, [
        ['Tags & UTM', '2 tags · utm_source=news', false],
        ['Targeting & rules', 'None', false],
        ['Protection', 'Password set · Private statistics', false],
        ['Expiry', 'Expires 2027-01-01 09:30', false],
        ['Tracking', 'None', false],
        ['App links', 'None', false],
        ['Social card', 'From the title and the destination', false],
      ]);
      await web.everyTheme('sections folded');
      await shots(page, 'link-form-folded');
      // By keyboard: Enter on a summary opens its section.
      await page.locator('details.form-section > summary').filter({ hasText: 'Expiry' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('#section-expiry').evaluate((d) => (d as HTMLDetailsElement).open), true);
      await page.getByLabel('Expire after this many clicks').fill('-4');
      await page.getByRole('button', { name: 'Save changes' }).last().click();
      await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
      assert.equal(await page.locator('#section-expiry').evaluate((d) => (d as HTMLDetailsElement).open), true);
      assert.equal(await page.locator('#section-protection').evaluate((d) => (d as HTMLDetailsElement).open), false);
      await web.everyTheme('an error opens its section');
    });

    test(
      'a template applied with JavaScript: no request, no navigation; without it, by the round trip',
      TIMEOUT,
      async () => {
        const key = await apiKeyOf(web.h, web.email);
        const template = await web.h.request('POST', '/api/v1/utm-templates', {
          key,
          form: { name: 'Autumn mail', utm_source: 'mail', utm_medium: 'email', utm_campaign: 'autumn' },
        });
        assert.equal(template.status, 201, template.text);
        const composed = `${web.dest.base}/offer?utm_source=mail&utm_medium=email&utm_campaign=autumn`;

        const { page } = web;
        await web.open('/links/new', 200, 'New link');
        await page.getByLabel('Destination URL').fill(`${web.dest.base}/offer`);
        await unfold(page, 'Tags & UTM');
        await page.getByLabel('Template').selectOption({ label: 'Autumn mail' });
        const requests: string[] = [];
        const listen = (r: Request) => void requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
        let navigated = 0;
        const onNavigate = () => void navigated++;
        page.on('request', listen);
        page.on('framenavigated', onNavigate);
        try {
          await page.getByRole('button', { name: 'Apply template' }).click();
          await page.getByRole('status').filter({ hasText: 'Template Autumn mail applied' }).waitFor();
          // Only the preview card's own refresh may follow (link-form.js), never the form's post.
          await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 700)));
        } finally {
          page.off('request', listen);
          page.off('framenavigated', onNavigate);
        }
        assert.equal(navigated, 0);
        assert.deepEqual(
          requests.filter((r) => r !== 'POST /links/new/preview'),
          [],
        );
        assert.equal(await page.getByLabel('Destination URL').inputValue(), composed);
        assert.equal(await page.getByLabel('Source (utm_source)').inputValue(), 'mail');
        await web.everyTheme('a template applied in the page');

        const off = await newPage({ javaScriptEnabled: false });
        await off.context().addCookies(await page.context().cookies());
        await off.goto(`${web.h.baseUrl}/links/new`);
        await off.getByLabel('Destination URL').fill(`${web.dest.base}/offer`);
        await unfold(off, 'Tags & UTM');
        await off.getByLabel('Template').selectOption({ label: 'Autumn mail' });
        const posted = off.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/links/new');
        await off.getByRole('button', { name: 'Apply template' }).click();
        await posted;
        await off.getByRole('status').filter({ hasText: 'nothing is saved' }).waitFor();
        assert.equal(await off.getByLabel('Destination URL').inputValue(), composed);
        // The section the button was in comes back open.
        assert.equal(await off.locator('#section-tags').evaluate((d) => (d as HTMLDetailsElement).open), true);
        await off.close();
      },
    );
  },
);
