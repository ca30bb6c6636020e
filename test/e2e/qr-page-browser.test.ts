/**
 * The QR page in a real Chromium: the preview follows the settings as they change (level, shape,
 * size) with the downloads and the address; a logo uploaded from the page is drawn; a refused
 * upload is named on its field. axe finds no violation in every theme, and nothing scrolls sideways.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';
import { contrastRatio } from '../../src/adapters/web/features/links/qr-contrast.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

function bluePng(): Buffer {
  const png = new PNG({ width: 32, height: 32 });
  for (let i = 0; i < 32 * 32; i++) png.data.set([30, 60, 200, 255], i * 4);
  return PNG.sync.write(png);
}

onEachEngineInBrowser('the QR page in a browser', {}, (web) => {
  let id: number;

  before(async () => {
    const key = await apiKeyOf(web.h, web.email);
    const res = await web.h.request('POST', '/api/v1/links', {
      key,
      form: { url: `${web.dest.base}/qr`, alias: 'qr-browser' },
    });
    assert.equal(res.status, 201, res.text);
    id = res.body.data.id as number;
  });

  test('the preview follows the options as they change, without a submit', TIMEOUT, async () => {
    await web.open(`/links/${id}/qr`, 200, 'QR code');
    await web.everyTheme();
    const { page } = web;
    await page.getByLabel('Error correction').selectOption('H');
    await page.getByLabel('Module shape').selectOption('rounded');
    const preview = page.getByRole('img', { name: /QR code for/ });
    await page.waitForFunction(() => {
      const img = document.querySelector('img[data-qr-preview]');
      return (
        img instanceof HTMLImageElement &&
        img.src.includes('style=rounded') &&
        img.src.includes('ecc=H') &&
        img.complete &&
        img.naturalWidth > 0
      );
    });
    assert.match(
      (await preview.getAttribute('src')) ?? '',
      new RegExp(`^/links/${id}/qr\\.svg\\?.*ecc=H&style=rounded`),
    );
    assert.match(page.url(), /ecc=H&style=rounded/);
    assert.match(
      (await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href')) ?? '',
      /ecc=H&style=rounded/,
    );
  });

  test('the contrast line follows the colours as they are picked, not the page’s first ones', TIMEOUT, async () => {
    await web.open(`/links/${id}/qr`, 200, 'QR code');
    const { page } = web;
    const box = page.locator('[data-qr-warnings]');
    assert.equal((await box.innerText()).trim(), 'Contrast ratio 21.00:1.');
    await page.getByLabel('Code colour').fill('#dddddd');
    const expected = `Low contrast (${contrastRatio('#dddddd', '#ffffff').toFixed(2)}:1)`;
    await box.getByText(expected).waitFor();
    assert.doesNotMatch(await box.innerText(), /21\.00/);
    await page.getByLabel('Background colour').fill('#000000');
    await box.getByText(/lighter than its background/).waitFor();
    await web.everyTheme('low contrast picked');
  });

  test('on a wide screen the settings start level with the code beside them', TIMEOUT, async () => {
    const { page } = web;
    await page.setViewportSize({ width: 1280, height: 800 });
    await web.open(`/links/${id}/qr`, 200, 'QR code');
    const code = await page.getByRole('img', { name: /QR code for/ }).boundingBox();
    const heading = await page.getByRole('heading', { name: 'QR code settings' }).boundingBox();
    assert.ok(code && heading);
    assert.ok(heading.x > code.x + code.width, `beside: ${JSON.stringify({ code, heading })}`);
    assert.ok(Math.abs(heading.y - code.y) <= 4, `level: ${JSON.stringify({ code, heading })}`);
  });

  test('a logo uploaded from the page is drawn; a refused one is named on its field', TIMEOUT, async () => {
    const { page } = web;
    await web.open(`/links/${id}/qr?style=rounded`, 200, 'QR code');
    await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: bluePng() });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('Logo saved.').waitFor();
    assert.match(page.url(), /style=rounded/);
    await page.getByText(/has a PNG logo/).waitFor();
    await web.everyTheme('with a logo');

    await page
      .getByLabel('Logo file')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a not a logo') });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('The logo must be a PNG or SVG image.').first().waitFor();
    await web.everyTheme('logo refused');

    await page.getByRole('button', { name: 'Remove logo' }).click();
    await page.getByText('Logo removed.').waitFor();
  });
});
