import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, newPage, tabTo } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { expectNoSidewaysScrollAt320 } from '../support/web-browser.ts';
import { CLIENT, TestProvider } from '../support/oidc-provider.ts';

const APP_URL = 'http://short.test';
const provider = await TestProvider.start(`${APP_URL}/login/sso/callback`);
after(closeBrowser);
after(() => provider.close());

const TIMEOUT = { timeout: 60_000 };
const env = {
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_NAME: 'Example ID',
};

onEachEngineInBrowser('single sign-on in a browser', { env, signedIn: false }, (web) => {
  web.once('the link on /login and the refusal page: axe in every theme, 320 px', TIMEOUT, async () => {
    const page = await newPage();
    await page.goto(`${web.h.baseUrl}/login`);
    await web.themes(page, { label: '/login with single sign-on' });
    await expectNoSidewaysScrollAt320(page);
    const refused = await page.goto(`${web.h.baseUrl}/login/sso/callback?code=x&state=y`);
    assert.equal(refused?.status(), 400);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Single sign-on');
    await web.themes(page, { label: 'a refused single sign-on' });
    await expectNoSidewaysScrollAt320(page);
    await page.close();
  });

  test('by keyboard, without JavaScript: the provider, then back signed in', TIMEOUT, async () => {
    const email = `browser-${Date.now()}@example.com`;
    provider.people.set(`b-${email}`, { email, email_verified: true, name: 'Bea Browser' });
    const page = await newPage({ javaScriptEnabled: false });
    // The provider sends the browser to APP_URL, a name no test resolves: this server is it.
    await page.route(`${APP_URL}/**`, (route) => {
      const url = new URL(route.request().url());
      return route.fulfill({ status: 302, headers: { location: `${web.h.baseUrl}${url.pathname}${url.search}` } });
    });
    await page.goto(`${web.h.baseUrl}/login?next=%2Fspaces`);
    await (await tabTo(page, 'Sign in with Example ID')).press('Enter');
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill(`b-${email}`);
    await page.locator('input[name="password"]').fill('any');
    await page.locator('input[name="password"]').press('Enter');
    await page.getByRole('button', { name: 'Continue' }).press('Enter');
    await page.waitForURL(`${web.h.baseUrl}/spaces`);
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Spaces');
    // The security page's single sign-on section, without JavaScript: the linked identity, Unlink, Connect; 320 px.
    await page.goto(`${web.h.baseUrl}/account/security`);
    assert.equal(await page.getByRole('table', { name: 'Connected identities' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Unlink your Example ID identity' }).count(), 1);
    assert.equal(await page.getByRole('link', { name: 'Connect Example ID' }).count(), 1);
    await expectNoSidewaysScrollAt320(page);
    await page.close();
  });
});
