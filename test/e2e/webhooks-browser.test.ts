/**
 * /webhooks in a real Chromium: the list, the new-webhook form with its format choice (and its
 * refusal), the secret page and the edit form pass axe in the light and dark themes and at 390 px,
 * without sideways scrolling at 320 px.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

onEachEngineInBrowser('webhooks in a browser', { env: { OUTBOUND_ALLOW_PRIVATE: 'true' } }, (web) => {
  test('/webhooks, a refused form, a Slack webhook made and edited', TIMEOUT, async () => {
    const key = await apiKeyOf(web.h, web.email);
    const res = await web.h.request('POST', '/api/v1/webhooks', {
      key,
      json: { url: 'https://example.com/receiver', events: ['link.created', 'link.deleted'] },
    });
    assert.equal(res.status, 201, res.text);
    await web.open('/webhooks', 200, 'Webhooks');
    await web.everyTheme('list');
    await web.page.getByRole('link', { name: 'New webhook' }).click();
    await web.assertHeading('New webhook');
    await web.everyTheme('new');
    await web.page.getByLabel('Address').fill('ftp://example.com/no');
    await web.page.getByRole('button', { name: 'Create webhook' }).click();
    await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    await web.everyTheme('refused');
    await web.page.getByLabel('Address').fill('https://hooks.slack.com/services/T0/B0/x');
    await web.page.getByLabel('Format').selectOption('slack');
    await web.page.getByRole('button', { name: 'Create webhook' }).click();
    await web.assertHeading('Webhook created');
    await web.everyTheme('created');
    await web.open('/webhooks', 200, 'Webhooks');
    await web.page.getByRole('link', { name: 'Edit webhook https://hooks.slack.com/services/T0/B0/x' }).click();
    await web.assertHeading('Edit webhook');
    await web.everyTheme('edit');
  });
});
