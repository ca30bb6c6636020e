/**
 * Every route of the web app on a 375 px phone, in the light and the dark theme (issue 31's
 * quality bar): no sideways scroll, no text under 12 px, targets of 24 × 24 px (or spaced), axe at
 * WCAG 2.2 AA (in dark, its colour rules: the theme changes only colours), no console error. The routes are test/support/app-routes.ts's; the checks
 * test/support/phone-check.ts's. On SQLite only: the templates are the same on either engine.
 * The email verification pages (EMAIL_VERIFICATION=required) on an app of their own, last.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { closeBrowser, newPage } from '../support/browser.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { seedApp, type SeededApp } from '../support/app-routes.ts';
import { expectPhoneReady, PHONE, watchConsole } from '../support/phone-check.ts';
import { expectBarReady, expectOpenMenuReady } from '../support/open-menu-check.ts';
import { SmtpSink } from '../support/smtp-sink.ts';
import { PASSWORD } from '../support/web-client.ts';

after(closeBrowser);

const THEMES = ['light', 'dark'] as const;

describe('every route of the web app at 375 px, light and dark', () => {
  let h: Harness;
  let app: SeededApp;
  let signedIn: Page;
  let signedOut: Page;

  before(async () => {
    h = await startHarness('sqlite', { env: { TRUST_PROXY: 'true' } });
    signedIn = await newPage({ viewport: PHONE });
    app = await seedApp(h, signedIn);
    signedOut = await newPage({ viewport: PHONE });
    watchConsole(signedIn);
    watchConsole(signedOut);
  });

  after(async () => {
    await signedIn?.close();
    await signedOut?.close();
    await app?.dest.close();
    await h?.close();
  });

  test('each page passes the phone checks in both themes', { timeout: 600_000 }, async () => {
    // Every page's faults at once, rather than the first page's alone.
    const faults: string[] = [];
    for (const route of app.routes) {
      const page = route.signedOut ? signedOut : signedIn;
      const res = await page.goto(h.baseUrl + route.path);
      if (res?.status() !== 200) faults.push(`${route.path}: ${res?.status()}`);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await expectPhoneReady(page, `${route.name}, ${theme}`, { theme }).catch((error: Error) =>
          faults.push(error.message),
        );
      }
    }
    assert.deepEqual(faults, []);
  });

  test(
    'the links list on a phone: each row shows its short URL, its clicks and a copy button',
    { timeout: 60_000 },
    async () => {
      await signedIn.goto(`${h.baseUrl}/links`);
      const rows = signedIn.locator('.links-table tbody tr');
      assert.equal(await rows.count(), 5);
      for (const row of await rows.all()) {
        assert.match(await row.locator('.short-url').innerText(), /^short\.test\//);
        assert.ok(await row.locator('.short-url').isVisible());
        assert.ok(await row.locator('.clicks').isVisible());
        assert.ok(await row.getByRole('button', { name: /^Copy: / }).isVisible());
        assert.ok(await row.locator('.sparkline').isVisible());
      }
      // The row's menu opens without leaving the page, and Escape closes it.
      const menu = rows.first().locator('details.row-menu');
      await menu.locator('summary').click();
      // An open menu floats over the rows under it (axe would count their targets as covered).
      await expectPhoneReady(signedIn, 'row menu open', { axe: false });
      assert.ok(await menu.getByRole('link', { name: /^Edit / }).isVisible());
      await signedIn.keyboard.press('Escape');
      assert.equal(await menu.getAttribute('open'), null);
      // The bulk bar appears once a row is ticked.
      const bar = signedIn.locator('[data-bulk-bar]');
      assert.equal(await bar.isVisible(), false);
      await rows.first().getByRole('checkbox').check();
      await bar.waitFor({ state: 'visible' });
      await expectPhoneReady(signedIn, 'a row ticked');
    },
  );

  test(
    'the header on a phone: a line of brand and menus, a line of the workspace, the navigation behind Menu, the theme in the account menu',
    { timeout: 60_000 },
    async () => {
      await signedIn.goto(`${h.baseUrl}/dashboard`);
      const header = await signedIn.locator('.site-header').boundingBox();
      assert.ok(header && header.height <= 104, `the header is ${header?.height} px tall`);
      // The workspace's name stays in view down to 320 px, its switch whole on its own line.
      for (const width of [PHONE.width, 320]) {
        await signedIn.setViewportSize({ width, height: PHONE.height });
        const chosen = signedIn.locator('.site-header #workspace-select');
        assert.ok(await chosen.isVisible(), `${width} px: the switch is shown`);
        assert.equal((await chosen.locator('option:checked').innerText()).trim(), 'Personal');
        const box = await chosen.boundingBox();
        const button = await signedIn.locator('.site-header .workspace-switch button').boundingBox();
        assert.ok(box && button && button.x + button.width <= width, `${width} px: the switch fits`);
      }
      await signedIn.setViewportSize(PHONE);
      assert.equal(
        await signedIn.getByRole('link', { name: 'Links', exact: true }).count(),
        0,
        'the navigation is folded away',
      );
      await signedIn.getByText('Menu', { exact: true }).click();
      await expectPhoneReady(signedIn, 'menu open', { axe: false });
      await signedIn.getByRole('link', { name: 'Links', exact: true }).click();
      await signedIn.waitForURL(`${h.baseUrl}/links`);
      await signedIn.locator('details.account-menu > summary').click();
      await signedIn.getByLabel('Theme').selectOption({ label: 'Dark' });
      await signedIn.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await expectPhoneReady(signedIn, 'dark chosen', { theme: 'dark' });
      await signedIn.locator('details.account-menu > summary').click();
      await signedIn.getByLabel('Theme').selectOption({ label: 'System' });
      await signedIn.waitForFunction(() => document.documentElement.dataset.theme === undefined);
    },
  );

  test(
    "the header's workspace switch without JavaScript, then by keyboard alone: the pages follow it",
    { timeout: 60_000 },
    async () => {
      const noScript = await newPage({ viewport: PHONE, javaScriptEnabled: false });
      try {
        await noScript.goto(`${h.baseUrl}/login`);
        await noScript.getByLabel('Email').fill(app.email);
        await noScript.getByLabel('Password').fill(PASSWORD);
        await noScript.getByRole('button', { name: 'Sign in' }).last().click();
        await noScript.waitForURL(/\/dashboard$|\/$/);
        await noScript.goto(`${h.baseUrl}/links`);
        const select = noScript.locator('.site-header #workspace-select');
        assert.equal((await select.locator('option:checked').innerText()).trim(), 'Personal');
        await select.selectOption({ label: 'Marketing team' });
        await noScript.locator('.site-header').getByRole('button', { name: 'Switch' }).click();
        await noScript.waitForURL(`${h.baseUrl}/links`);
        assert.equal((await select.locator('option:checked').innerText()).trim(), 'Marketing team');
        assert.match(await noScript.locator('.flash').innerText(), /Now working in Marketing team/);
        assert.equal(await noScript.locator('.links-table tbody tr').count(), 0, "the team's links, none yet");
        for (const theme of THEMES) {
          await noScript.emulateMedia({ colorScheme: theme });
          // axe needs scripts; the same page with them is in the every-route check above.
          await expectPhoneReady(noScript, `switched without JavaScript, ${theme}`, { theme, axe: false });
        }
      } finally {
        await noScript.close();
      }
      // By keyboard, with the script on: moving through the options goes nowhere until Switch.
      await signedIn.setViewportSize({ width: 1280, height: 800 });
      await signedIn.goto(`${h.baseUrl}/links`);
      const select = signedIn.locator('.site-header #workspace-select');
      await select.focus();
      await signedIn.keyboard.press('ArrowDown');
      assert.equal(signedIn.url(), `${h.baseUrl}/links`, 'choosing is not switching');
      assert.equal((await select.locator('option:checked').innerText()).trim(), 'Marketing team');
      await signedIn.keyboard.press('Tab');
      await signedIn.keyboard.press('Enter');
      await signedIn.waitForLoadState('load');
      await signedIn.locator('.flash').waitFor();
      assert.equal((await select.locator('option:checked').innerText()).trim(), 'Marketing team');
      await select.selectOption({ label: 'Personal' });
      await signedIn.locator('.site-header').getByRole('button', { name: 'Switch' }).click();
      await signedIn.locator('.flash').waitFor();
      assert.equal((await select.locator('option:checked').innerText()).trim(), 'Personal');
      await signedIn.setViewportSize(PHONE);
    },
  );

  test(
    'each open menu on a phone: axe on the menu itself in both themes, and the keyboard',
    { timeout: 120_000 },
    async () => {
      await signedIn.goto(`${h.baseUrl}/links`);
      const faults: string[] = [];
      const check = (what: string, run: () => Promise<void>) =>
        run().catch((error: Error) => faults.push(`${what}: ${error.message}`));
      await check('header menu', () =>
        expectOpenMenuReady(signedIn, signedIn.locator('details.nav-menu'), 'details.nav-menu', 'header menu'),
      );
      await check('account menu', () =>
        expectOpenMenuReady(signedIn, signedIn.locator('details.account-menu'), 'details.account-menu', 'account menu'),
      );
      const row = 'tr:first-child details.row-menu';
      await check('row menu', () =>
        expectOpenMenuReady(
          signedIn,
          signedIn.locator(`.links-table tbody ${row}`),
          `.links-table tbody ${row}`,
          'row menu',
        ),
      );
      await signedIn.locator('.links-table tbody tr').first().getByRole('checkbox').check();
      const bar = signedIn.locator('[data-bulk-bar]');
      await bar.waitFor({ state: 'visible' });
      await check('bulk bar', () => expectBarReady(signedIn, bar, '[data-bulk-bar]', 'bulk bar'));
      assert.deepEqual(faults, []);
    },
  );
});

// EMAIL_VERIFICATION=required adds the pages a sign-up waits on (docs/design/teams.md); the app above
// runs without them, so a second app on SQLite, its mail caught by a local SMTP server.
describe('the email verification pages at 375 px, light and dark (EMAIL_VERIFICATION=required)', () => {
  const sink = new SmtpSink();
  let h: Harness;
  let pages: Page[];

  before(async () => {
    h = await startHarness('sqlite', { env: { EMAIL_VERIFICATION: 'required', SMTP_URL: await sink.start() } });
    pages = [await newPage({ viewport: PHONE }), await newPage({ viewport: PHONE })];
  });

  after(async () => {
    for (const page of pages ?? []) await page.close();
    await h?.close();
    await sink.close();
  });

  test('waiting, refused, link sent again, the link, and the link used twice', { timeout: 120_000 }, async () => {
    const [page, other] = pages as [Page, Page];
    const faults: string[] = [];
    // The page as it stands, after `act`'s navigation answered `status` (a flash is shown once: no reload).
    const check = async (what: string, on: Page, status: number, act: () => Promise<unknown>) => {
      // Each step's console errors alone; a refused page's own status is logged as one (Chromium), so those are watched from their load on.
      if (status === 200) watchConsole(on);
      const [res] = await Promise.all([
        on.waitForResponse((r) => r.request().isNavigationRequest() && r.status() !== 303),
        act(),
      ]);
      await on.waitForLoadState('load');
      if (status !== 200) watchConsole(on);
      if (res.status() !== status) faults.push(`${what}: ${res.status()}, not ${status}`);
      for (const theme of THEMES) {
        await on.emulateMedia({ colorScheme: theme });
        await expectPhoneReady(on, `${what}, ${theme}`, { theme }).catch((error: Error) => faults.push(error.message));
      }
    };
    const email = `verify-${Date.now()}@example.com`;
    await page.goto(`${h.baseUrl}/signup`);
    await page.getByLabel('Name').fill('Waiting User');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await check('/signup/verify (waiting)', page, 200, () =>
      page.getByRole('button', { name: 'Create account' }).click(),
    );
    const path = /https?:\/\/\S+(\/signup\/verify\/[A-Za-z0-9_-]{43})/.exec(
      (await sink.mailTo(email)).raw.replace(/=\r?\n/g, ''),
    )?.[1];
    assert.ok(path, 'a link in the mail');

    await page.getByLabel('Email').fill('');
    await check('/signup/verify (no email: 422)', page, 422, () =>
      page.getByRole('button', { name: 'Send another link' }).click(),
    );
    await page.getByLabel('Email').fill(email);
    await check('/signup/verify (sent again)', page, 200, () =>
      page.getByRole('button', { name: 'Send another link' }).click(),
    );

    await check('/signup/verify/{token}', page, 200, () => page.goto(h.baseUrl + path));
    await other.goto(h.baseUrl + path);
    await check('/login (confirmed)', page, 200, () =>
      page.getByRole('button', { name: 'Confirm my email address' }).click(),
    );
    // The same link in a second tab, confirmed in the first: dead.
    await check('/signup/verify/{token} (used: 410)', other, 410, () =>
      other.getByRole('button', { name: 'Confirm my email address' }).click(),
    );
    assert.deepEqual(faults, []);
  });
});
