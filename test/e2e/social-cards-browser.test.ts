/**
 * Social cards in a real Chromium (docs/design/social-cards.md): the card is set in the link
 * form's folded *Social card* section; a client with an unfurler's User-Agent (Slack's) is given
 * the page of og: and twitter: tags and stays on the short URL, a browser is sent on to the
 * destination, and only the browser's visit is a click.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 90_000 };
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

const unfold = (page: Page, title: string) =>
  page.locator('details.form-section > summary').filter({ hasText: title }).click();

const meta = (page: Page, attribute: 'property' | 'name', value: string) =>
  page.locator(`meta[${attribute}="${value}"]`).getAttribute('content');

onEachEngineInBrowser('social cards in a browser', {}, (web) => {
  test('a card set in the form: an unfurler gets its tags, a browser the redirect, one click', TIMEOUT, async () => {
    const { page } = web;
    const key = await apiKeyOf(web.h, web.email);
    await web.open('/links/new', 200, 'New link');
    await page.getByLabel('Destination URL').first().fill(`${web.dest.base}/landing`);
    await page.getByLabel('Alias').fill('carded');
    await unfold(page, 'Social card');
    await page.getByLabel('Card title').fill('Spring "sale" <now>');
    await page.getByLabel('Card description').fill('Everything half price.');
    await page.getByLabel('Card image URL').fill('https://cdn.example/spring.png');
    await web.everyTheme('the social card section');
    await page.getByRole('button', { name: 'Create link' }).last().click();
    await page.waitForURL(/\/links\/\d+\/edit$/);
    const list = await web.h.request('GET', '/api/v1/links?per_page=100', { key });
    const link = list.body.data.find((l: { alias: string }) => l.alias === 'carded');
    assert.deepEqual(link.social_card, {
      title: 'Spring "sale" <now>',
      description: 'Everything half price.',
      image: 'https://cdn.example/spring.png',
    });

    const unfurler = await newPage({ userAgent: SLACK });
    try {
      const answer = await unfurler.goto(`${web.h.baseUrl}/carded`);
      assert.equal(answer?.status(), 200);
      assert.equal(new URL(unfurler.url()).pathname, '/carded', 'the unfurler stays on the short URL');
      assert.equal(await meta(unfurler, 'property', 'og:title'), 'Spring "sale" <now>');
      assert.equal(await meta(unfurler, 'property', 'og:description'), 'Everything half price.');
      assert.equal(await meta(unfurler, 'property', 'og:image'), 'https://cdn.example/spring.png');
      assert.equal(await meta(unfurler, 'name', 'twitter:card'), 'summary_large_image');
    } finally {
      await unfurler.close();
    }

    const person = await newPage();
    try {
      await person.goto(`${web.h.baseUrl}/carded`);
      assert.equal(person.url(), `${web.dest.base}/landing`, 'a browser is sent on');
    } finally {
      await person.close();
    }

    const deadline = Date.now() + 20_000;
    let clicks = 0;
    while (Date.now() < deadline) {
      const read = await web.h.request('GET', `/api/v1/links/${link.id}`, { key });
      clicks = read.body.data.clicks as number;
      if (clicks >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(clicks, 1, 'the browser’s visit is the one click');
  });
});
