/**
 * The import page by keyboard alone, in a real Chromium: from the links list to the import form,
 * the file chosen on the focused input, a format picked from its select, a dry run without a file
 * first (the choices kept, the fault named), then the dry run, its report read through, the
 * confirmation, and the import's report. Every control is reached by Tab in the order it is
 * read, each shows where focus is, and each screen passes axe.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage, tabTo } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf, signUpInBrowser } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };

/** What has focus, as its accessible name read by the page: its label, or its text. */
async function focusedName(page: Page): Promise<string> {
  return page.locator(':focus').evaluate((el) => {
    const labelled = (el as HTMLInputElement).labels?.[0]?.textContent;
    return (labelled ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });
}

/** The focused control draws a ring: an outline at least 2 px wide, not `none` (WCAG 2.4.7). */
async function assertFocusShown(page: Page, what: string): Promise<void> {
  const ring = await page.locator(':focus').evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  assert.notEqual(ring.style, 'none', `${what}: no focus ring`);
  assert.ok(ring.width >= 2, `${what}: a focus ring of ${ring.width} px`);
}

/** Tabs once per name, expecting each in turn: the order the controls are read in. */
async function assertTabOrder(page: Page, names: readonly (string | RegExp)[]): Promise<void> {
  for (const name of names) {
    await page.keyboard.press('Tab');
    const now = await focusedName(page);
    if (typeof name === 'string') assert.equal(now, name, `after Tab: ${now}, expected ${name}`);
    else assert.match(now, name);
    await assertFocusShown(page, now);
  }
}

/** From the page's start, by its skip link, into the main content. */
async function skipToContent(page: Page): Promise<void> {
  await tabTo(page, 'Skip to content');
  await assertFocusShown(page, 'the skip link');
  await page.keyboard.press('Enter');
}

onEachEngineInBrowser('import by keyboard in a browser', { signedIn: false }, (web) => {
  test(
    'the whole journey by keyboard: form, a refused dry run, the dry run, its report, the import',
    TIMEOUT,
    async () => {
      const page = await newPage();
      const email = await signUpInBrowser(page, web.h.baseUrl);
      const key = await apiKeyOf(web.h, email);
      await page.goto(`${web.h.baseUrl}/links`);
      await tabTo(page, 'Import links', { max: 40 });
      await page.keyboard.press('Enter');
      await page.waitForURL(`${web.h.baseUrl}/links/import`);
      await web.themes(page, { label: 'import form' });

      await skipToContent(page);
      await assertTabOrder(page, ['File', 'Format', 'When an alias is taken', 'Dry run', 'Import now']);
      // Back to the format by Shift+Tab, chosen from the keyboard (a closed select takes arrows).
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
      assert.equal(await focusedName(page), 'Format');
      const format = page.getByLabel('Format');
      while ((await format.inputValue()) !== 'csv') await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.getByLabel('When an alias is taken').inputValue(), 'rename');
      // No file yet: the dry run names what is wrong and keeps what was chosen.
      await tabTo(page, 'Dry run', { max: 2 });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
      assert.equal(await format.inputValue(), 'csv');
      assert.equal(await page.getByLabel('When an alias is taken').inputValue(), 'rename');
      await web.themes(page, { label: 'import form refused' });
      await tabTo(page, 'Choose a file to import.', { max: 40 });
      await assertFocusShown(page, 'the summary’s link');
      await page.keyboard.press('Enter');
      // The summary's link leads to the field: the next Tab is the file input's.
      const input = await tabTo(page, 'File', { max: 3 });
      const file = `url,alias,tags\r\n${web.dest.base}/k1,keys-one,a\r\nnot a url,keys-bad,\r\n${web.dest.base}/k2,keys-one,\r\n`;
      await input.setInputFiles({ name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
      await tabTo(page, 'Dry run', { max: 4 });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Dry run: nothing written yet' }).waitFor();
      await web.themes(page, { label: 'dry run' });

      // The report is read in order: the table of rows reachable (it scrolls on a narrow screen),
      // then the confirmation, then the way back.
      await skipToContent(page);
      assert.equal(await page.locator('[data-count="created"]').innerText(), '1');
      assert.equal(await page.locator('[data-count="renamed"]').innerText(), '1');
      assert.equal(await page.locator('[data-count="error"]').innerText(), '1');
      await assertTabOrder(page, [
        'The rows not imported as the file says',
        'Import these links',
        'Import another file',
      ]);
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focusedName(page), 'Import these links');
      assert.equal((await web.h.request('GET', '/api/v1/links', { key })).body.data.length, 0, 'nothing written yet');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Import report' }).waitFor();
      await web.themes(page, { label: 'import report' });
      await skipToContent(page);
      await assertTabOrder(page, ['The rows not imported as the file says', 'Go to the links', 'Import another file']);
      const links = (await web.h.request('GET', '/api/v1/links', { key })).body.data;
      assert.deepEqual(links.map((l: { alias: string }) => l.alias).sort(), ['keys-one', 'keys-one-2']);
      await page.close();
    },
  );
});
