/**
 * Two-factor sign-in in a real Chromium: /account/security in each state (off, setting up, the
 * recovery codes, on) axe-clean in the light and dark themes, at 375 px and 320 px; enrol →
 * sign out → sign in with a code from the app; and with JavaScript off at 375 px, a sign-in with
 * a recovery code and asking for a reset link; /login/forgot and a dead link's page axe-clean. The server's clock is fixed and moved by hand: a
 * code is accepted once per 30-second step, and the test gives the next step's code.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { blockedRequests, closeBrowser, newPage } from '../support/browser.ts';
import { PASSWORD } from '../support/web-client.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { ManualClock } from '../integration/stats/stats-support.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 240_000 };
const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));
const PHONE = { width: 375, height: 740 };

async function expectNoSidewaysScrollAt375(page: Page): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
    assert.equal(overflow, 0, `${page.url()} scrolls sideways by ${overflow} px at 375 px wide`);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

onEachEngineInBrowser('two-factor sign-in in a browser', { overrides: { clock } }, (web) => {
  const { open, everyTheme } = web;
  let secret = '';
  let recovery: string[] = [];
  const code = () => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });

  test(
    '/account/security: set up by the key, the recovery codes shown once, then on; every state axe-clean in both themes',
    TIMEOUT,
    async () => {
      clock.set('2026-03-10T12:00:00Z');
      await open('/account/security', 200, 'Security');
      await everyTheme('off');
      await expectNoSidewaysScrollAt375(web.page);
      await web.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      await web.page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 3 }).waitFor();
      assert.equal(await web.page.getByRole('img', { name: 'QR code of your two-factor secret' }).count(), 1);
      secret = (await web.page.locator('#totp-secret').inputValue()).replace(/ /g, '');
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await everyTheme('setting up');
      await expectNoSidewaysScrollAt375(web.page);

      await web.page.getByLabel('Code from the app').fill('000000' === code() ? '111111' : '000000');
      await web.page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
      await everyTheme('a wrong code');

      await web.page.getByLabel('Code from the app').fill(code());
      await web.page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      await web.page.getByRole('heading', { name: 'Your recovery codes', level: 1 }).waitFor();
      recovery = await web.page.locator('.recovery-codes li').allInnerTexts();
      assert.equal(recovery.length, 10);
      await everyTheme('recovery codes');
      await expectNoSidewaysScrollAt375(web.page);

      await open('/account/security', 200, 'Security');
      await web.page.getByText(/Two-factor sign-in is on since/).waitFor();
      await everyTheme('on');
      await expectNoSidewaysScrollAt375(web.page);
    },
  );

  test('sign out, then sign in: the password, then a code from the app', TIMEOUT, async () => {
    clock.set('2026-03-10T12:01:00Z');
    await web.page.locator('.account-menu summary').click();
    await web.page.locator('.menu-signout button').click();
    await web.page.waitForURL(`${web.h.baseUrl}/login`);
    await web.page.getByLabel('Email').fill(web.email);
    await web.page.getByLabel('Password').fill(PASSWORD);
    await web.page.getByRole('button', { name: 'Sign in' }).last().click();
    await web.page.waitForURL(/\/login\/two-factor\?next=/);
    await web.assertHeading('Two-factor sign-in');
    await web.themes(web.page, { label: 'code step' });
    await expectNoSidewaysScrollAt375(web.page);
    await web.page.getByLabel('Code', { exact: true }).fill(code());
    await web.page.getByRole('button', { name: 'Sign in' }).last().click();
    await web.page.waitForURL(`${web.h.baseUrl}/dashboard`);
    assert.deepEqual(blockedRequests(web.page), []);
  });

  test('with JavaScript off at 375 px: sign in with a recovery code; ask for a reset link', TIMEOUT, async () => {
    clock.set('2026-03-10T12:02:00Z');
    const plain = await newPage({ javaScriptEnabled: false, viewport: PHONE });
    try {
      await plain.goto(`${web.h.baseUrl}/login`);
      await plain.getByLabel('Email').fill(web.email);
      await plain.getByLabel('Password').fill(PASSWORD);
      await plain.getByRole('button', { name: 'Sign in' }).last().click();
      await plain.waitForURL(/\/login\/two-factor/);
      await plain.getByLabel('Code', { exact: true }).fill(recovery[0]!);
      await plain.getByRole('button', { name: 'Sign in' }).last().click();
      await plain.waitForURL(`${web.h.baseUrl}/dashboard`);

      const other = await newPage({ javaScriptEnabled: false, viewport: PHONE });
      try {
        await other.goto(`${web.h.baseUrl}/login`);
        await other.getByRole('link', { name: 'Reset it', exact: true }).click();
        await other.waitForURL(`${web.h.baseUrl}/login/forgot`);
        await other.getByLabel('Email').fill(web.email);
        await other.getByRole('button', { name: 'Send the link' }).click();
        await other.waitForURL(`${web.h.baseUrl}/login`);
        // This server sends no mail: the page says where the link went instead of promising one.
        await other.getByText(/its reset link is in the server’s log/).waitFor();
      } finally {
        await other.close();
      }
    } finally {
      await plain.close();
    }
  });

  test('/login/forgot and a dead reset link, signed out: axe-clean in both themes, 375 px', TIMEOUT, async () => {
    const anonymous = await newPage();
    try {
      assert.equal((await anonymous.goto(`${web.h.baseUrl}/login/forgot`))?.status(), 200);
      await web.themes(anonymous, { label: 'forgot' });
      await expectNoSidewaysScrollAt375(anonymous);
      assert.equal((await anonymous.goto(`${web.h.baseUrl}/login/reset/${'x'.repeat(43)}`))?.status(), 410);
      await web.themes(anonymous, { label: 'dead link' });
      await expectNoSidewaysScrollAt375(anonymous);
    } finally {
      await anonymous.close();
    }
  });
});
