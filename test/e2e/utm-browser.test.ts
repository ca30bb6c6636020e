/**
 * The UTM templates screens and the link form's UTM builder in a real Chromium: axe in both
 * themes and at 390 px, no sideways scrolling at 320 px; typing in the five fields rewrites the
 * destination as it goes, typing in the destination fills the fields, and a template applied
 * (a round trip) and saved gives the link that destination.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

onEachEngineInBrowser('UTM templates and the link form’s UTM builder in a browser', {}, (web) => {
  test('/links/utm-templates: empty, a template made through its form, the list, a refused form', TIMEOUT, async () => {
    await web.open('/links/utm-templates', 200, 'UTM templates');
    await web.everyTheme('no templates');
    await web.page.getByRole('link', { name: 'New template' }).click();
    await web.assertHeading('New UTM template');
    await web.everyTheme('new');
    await web.page.getByRole('button', { name: 'Create' }).click();
    await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    await web.everyTheme('refused');
    await web.page.getByLabel('Name').fill('Spring newsletter');
    await web.page.getByLabel('Source (utm_source)').fill('newsletter');
    await web.page.getByLabel('Medium (utm_medium)').fill('email');
    await web.page.getByLabel('Campaign (utm_campaign)').fill('spring');
    await web.page.getByRole('button', { name: 'Create' }).click();
    await web.assertHeading('UTM templates');
    assert.equal(await web.page.getByRole('row', { name: /Spring newsletter/ }).count(), 1);
    await web.everyTheme('one template');
  });

  test(
    'the link form: the destination follows the five fields as they are typed, and the fields follow it',
    TIMEOUT,
    async () => {
      await web.open('/links/new', 200, 'New link');
      await web.everyTheme('the builder folded');
      await web.page.locator('details.form-section > summary').filter({ hasText: 'Tags & UTM' }).click();
      await web.everyTheme('the builder open');
      const url = web.page.getByLabel('Destination URL');
      await url.fill(`${web.dest.base}/landing?ref=7#top`);
      await web.page.getByLabel('Source (utm_source)').pressSequentially('news letter');
      await web.page.getByLabel('Campaign (utm_campaign)').pressSequentially('été');
      assert.equal(
        await url.inputValue(),
        `${web.dest.base}/landing?ref=7&utm_source=news%20letter&utm_campaign=%C3%A9t%C3%A9#top`,
      );
      await web.page.getByLabel('Source (utm_source)').fill('');
      assert.equal(await url.inputValue(), `${web.dest.base}/landing?ref=7&utm_campaign=%C3%A9t%C3%A9#top`);
      await url.fill(`${web.dest.base}/landing?utm_medium=cpc&utm_term=shoes+red`);
      assert.equal(await web.page.getByLabel('Medium (utm_medium)').inputValue(), 'cpc');
      assert.equal(await web.page.getByLabel('Term (utm_term)').inputValue(), 'shoes red');
      assert.equal(await web.page.getByLabel('Campaign (utm_campaign)').inputValue(), '');
    },
  );

  test('a template applied, then saved: the link has the destination the page showed', TIMEOUT, async () => {
    await web.open('/links/new', 200, 'New link');
    const url = web.page.getByLabel('Destination URL');
    await url.fill(`${web.dest.base}/offer`);
    await web.page.getByLabel('Alias').fill('utm-browser');
    await web.page.locator('details.form-section > summary').filter({ hasText: 'Tags & UTM' }).click();
    await web.page.getByLabel('Template').selectOption({ label: 'Spring newsletter' });
    await web.page.getByRole('button', { name: 'Apply template' }).click();
    // Applied in the page (warm-start-browser.test.ts: no request, and the round trip without JavaScript).
    await web.page.getByRole('status').filter({ hasText: 'Template Spring newsletter applied' }).waitFor();
    const composed = `${web.dest.base}/offer?utm_source=newsletter&utm_medium=email&utm_campaign=spring`;
    assert.equal(await url.inputValue(), composed);
    assert.equal(await web.page.getByLabel('Alias').inputValue(), 'utm-browser');
    await web.page.getByLabel('Content (utm_content)').pressSequentially('hero');
    await web.page.getByRole('button', { name: 'Create link' }).last().click();
    await web.assertHeading('Edit link');
    const key = await apiKeyOf(web.h, web.email);
    const id = /\/links\/(\d+)\/edit$/.exec(web.page.url())?.[1];
    const link = await web.h.request('GET', `/api/v1/links/${id}`, { key });
    assert.equal(link.body.data.url, `${composed}&utm_content=hero`);
    assert.equal(await web.page.getByLabel('Content (utm_content)').inputValue(), 'hero');
  });
});
