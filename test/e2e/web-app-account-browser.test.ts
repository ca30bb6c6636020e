/**
 * Signing up and in, the account and API-key screens and the admin screens in a real Chromium:
 * axe in the light and dark themes and at 390 px, fields that stand out, no sideways scrolling at
 * 390 px nor 320 px; and the API-key journey: a key made on /account/api-keys works against the
 * API, and once revoked it answers 401.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from '../support/harness.ts';
import { blockedRequests, checkEveryTheme, newPage } from '../support/browser.ts';
import { PASSWORD } from '../support/web-client.ts';
import { expectNoSidewaysScrollAt320, signUpInBrowser, startDestination, type Destination } from '../support/web-browser.ts';

const TIMEOUT = { timeout: 60_000 };

describe('the account and admin screens in a browser; an API key made, used and revoked', () => {
  let h: Harness;
  let dest: Destination;
  let page: Page;
  let email: string;

  before(async () => {
    h = await startHarness('sqlite');
    dest = await startDestination();
    // The first account signed up is the operator: this page's.
    page = await newPage();
    email = await signUpInBrowser(page, h.baseUrl);
  });

  after(async () => {
    await page?.close();
    await h?.close();
    await dest?.close();
  });

  async function open(path: string, status: number, heading: string | RegExp): Promise<void> {
    const res = await page.goto(h.baseUrl + path);
    assert.equal(res?.status(), status, path);
    const text = await page.getByRole('heading', { level: 1 }).innerText();
    if (typeof heading === 'string') assert.equal(text, heading);
    else assert.match(text, heading);
  }

  async function everyTheme(label?: string): Promise<void> {
    await checkEveryTheme(page, label ? { label } : {});
    await expectNoSidewaysScrollAt320(page);
    assert.deepEqual(blockedRequests(page), []);
  }

  test('/signup and /login, signed out, and each with its errors', TIMEOUT, async () => {
    const anonymous = await newPage();
    try {
      const goto = async (path: string, heading: string) => {
        const res = await anonymous.goto(h.baseUrl + path);
        assert.equal(res?.status(), 200);
        assert.equal(await anonymous.getByRole('heading', { level: 1 }).innerText(), heading);
      };
      await goto('/signup', 'Create your account');
      await checkEveryTheme(anonymous);
      await expectNoSidewaysScrollAt320(anonymous);
      await anonymous.getByLabel('Email').fill('not an email');
      await anonymous.getByRole('button', { name: 'Create account' }).click();
      await anonymous.getByRole('heading', { name: 'There is a problem' }).waitFor();
      await checkEveryTheme(anonymous, { label: 'refused' });
      await goto('/login', 'Sign in');
      await checkEveryTheme(anonymous);
      await expectNoSidewaysScrollAt320(anonymous);
      await anonymous.getByLabel('Email').fill('nobody@example.com');
      await anonymous.getByLabel('Password').fill('wrong password');
      await anonymous.getByRole('button', { name: 'Sign in' }).last().click();
      await anonymous.getByText('The email or password is wrong.').first().waitFor();
      await checkEveryTheme(anonymous, { label: 'refused' });
      assert.deepEqual(blockedRequests(anonymous), []);
    } finally {
      await anonymous.close();
    }
  });

  test('/account: profile, password, sessions (one, then two browsers), the delete page; a refused password change', TIMEOUT, async () => {
    await open('/account', 200, 'Account');
    await everyTheme('one session');
    // A second browser signed in to the same account: its row has a "Sign out" button.
    const elsewhere = await newPage();
    await elsewhere.goto(`${h.baseUrl}/login`);
    await elsewhere.getByLabel('Email').fill(email);
    await elsewhere.getByLabel('Password').fill(PASSWORD);
    await elsewhere.getByRole('button', { name: 'Sign in' }).last().click();
    await elsewhere.waitForURL(`${h.baseUrl}/dashboard`);
    await elsewhere.close();
    await open('/account', 200, 'Account');
    assert.equal(await page.getByRole('button', { name: /^Sign out .*, signed in / }).count(), 1);
    await everyTheme('two sessions');
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('another good one');
    await page.getByLabel('New password again').fill('another good one');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    await everyTheme('refused password change');
    await open('/account/delete', 200, 'Delete account');
    await everyTheme();
  });

  test('the API-key journey: create on /account/api-keys (shown once), use it against /api/v1/account, revoke it (401)', TIMEOUT, async () => {
    await open('/account/api-keys', 200, 'API keys');
    await everyTheme('no keys');
    await page.getByLabel('Name').fill('Reporting script');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Your new key' }).waitFor();
    const apiKey = await page.getByRole('textbox', { name: 'The key Reporting script' }).inputValue();
    assert.ok(apiKey.length > 20, 'a key is shown');
    await everyTheme('key shown');
    const use = () => fetch(`${h.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
    const before = await use();
    assert.equal(before.status, 200);
    const account = (await before.json()) as { data: { email: string } };
    assert.match(account.data.email, /@example\.com$/);
    // Shown once: the list no longer holds it.
    await page.goto(`${h.baseUrl}/account/api-keys`);
    assert.ok(!(await page.locator('body').innerText()).includes(apiKey));
    await page.getByRole('button', { name: 'Revoke the key Reporting script' }).click();
    await page.getByRole('status').filter({ hasText: 'The key is revoked' }).waitFor();
    await everyTheme('a revoked key');
    assert.equal((await use()).status, 401);
  });

  test('/admin, /admin/accounts (a suspended one among them), an account’s delete page, /admin/links', TIMEOUT, async () => {
    const other = await h.account();
    const suspended = await h.account();
    await h.request('POST', '/api/v1/links', { key: other.key, form: { url: `${dest.base}/other-account`, alias: 'someone-else' } });
    await open('/admin/accounts', 200, 'Accounts');
    await page.getByRole('button', { name: `Suspend ${suspended.email}` }).click();
    await page.getByRole('status').waitFor();
    await everyTheme();
    await open('/admin', 200, 'Administration');
    await everyTheme();
    await open(`/admin/accounts/${other.id}/delete`, 200, 'Delete an account');
    await everyTheme();
    await open('/admin/links', 200, 'All links');
    assert.match(await page.locator('main').innerText(), /someone-else/);
    await everyTheme();
  });
});
