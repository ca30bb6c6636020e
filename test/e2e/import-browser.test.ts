/**
 * The import page in a real Chromium with JavaScript off: a Bitly CSV with tags uploaded, the dry
 * run's report (created, renamed, skipped), then the import, and the links carry their tags; the
 * form, the dry run and the report pass axe in both themes and fit 320 px.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf, signUpInBrowser } from '../support/web-browser.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };

onEachEngineInBrowser('import in a browser', {}, (web) => {
  test('JavaScript off: a Bitly CSV with tags, its dry run, then the import', TIMEOUT, async () => {
    const page = await newPage({ javaScriptEnabled: false });
    const email = await signUpInBrowser(page, web.h.baseUrl);
    const key = await apiKeyOf(web.h, email);
    const made = await web.h.request('POST', '/api/v1/links', {
      key,
      json: { url: `${web.dest.base}/t`, alias: 'taken-bt' },
    });
    assert.equal(made.status, 201, made.text);
    const file = [
      'Title,Short link,Long URL,Created,Tags',
      `Launch,bit.ly/launch-bt,${web.dest.base}/launch,2024-03-01,"news, Spring sale"`,
      `Taken,bit.ly/taken-bt,${web.dest.base}/taken,2024-03-02,docs`,
      `Twice,bit.ly/launch-bt,${web.dest.base}/twice,2024-03-03,`,
    ].join('\r\n');
    await page.goto(`${web.h.baseUrl}/links`);
    await page.getByRole('link', { name: 'Import links' }).click();
    await page.getByRole('heading', { name: 'Import links', level: 1 }).waitFor();
    const dryRun = async (onConflict: string) => {
      await page
        .getByLabel('File')
        .setInputFiles({ name: 'bitly.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
      await page.getByLabel('Format').selectOption('bitly-csv');
      await page.getByLabel('When an alias is taken').selectOption(onConflict);
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.getByRole('heading', { name: 'Dry run: nothing written yet' }).waitFor();
    };
    const count = (s: string) => page.locator(`[data-count="${s}"]`).innerText();
    const counts = async () => [await count('created'), await count('renamed'), await count('skipped')];
    await dryRun('skip');
    assert.deepEqual(await counts(), ['1', '0', '2'], 'the taken alias and the one twice in the file skipped');
    assert.equal(await page.locator('[data-ignored]').innerText(), 'Created');
    await page.getByRole('link', { name: 'Import another file' }).click();
    await dryRun('rename');
    assert.deepEqual(await counts(), ['1', '2', '0']);
    const before = await web.h.request('GET', '/api/v1/links', { key });
    assert.equal(before.body.data.length, 1, 'the dry runs wrote nothing');

    await page.getByRole('button', { name: 'Import these links' }).click();
    await page.getByRole('heading', { name: 'Import report' }).waitFor();
    assert.equal(await count('created'), '1');
    const after = await web.h.request('GET', '/api/v1/links?per_page=100', { key });
    const tags = Object.fromEntries(after.body.data.map((l: Json) => [l.alias, [...l.tags].sort()]));
    assert.deepEqual(tags['launch-bt'], ['Spring sale', 'news']);
    assert.deepEqual(tags['taken-bt-2'], ['docs']);
    assert.deepEqual(tags['launch-bt-2'], []);
    await page.close();
  });

  test('the form, a refused upload, a dry run and a report in every theme and at 320 px', TIMEOUT, async () => {
    await web.open('/links/import', 200, 'Import links');
    await web.everyTheme('form');
    await web.page.getByRole('button', { name: 'Dry run' }).click();
    await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    await web.everyTheme('refused');
    const file = `url,alias,tags,notes\r\n${web.dest.base}/a,theme-a,"a, b",hello\r\nnot a url,theme-b,,\r\n`;
    await web.page
      .getByLabel('File')
      .setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await web.page.getByRole('button', { name: 'Dry run' }).click();
    await web.page.getByRole('heading', { name: 'Dry run: nothing written yet' }).waitFor();
    await web.everyTheme('dry run');
    await web.page.getByRole('button', { name: 'Import these links' }).click();
    await web.page.getByRole('heading', { name: 'Import report' }).waitFor();
    await web.everyTheme('report');
  });
});
