/**
 * Signing up and in, the account and API-key screens and the admin screens in a real Chromium:
 * axe in the light and dark themes and at 390 px, fields that stand out, no sideways scrolling at
 * 390 px nor 320 px; and the API-key journey: a key made on /account/api-keys works against the
 * API, and once revoked it answers 401.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockedRequests, closeBrowser, newPage } from '../support/browser.ts';
import { PASSWORD } from '../support/web-client.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { expectNoSidewaysScrollAt320 } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

onEachEngineInBrowser('the account and admin screens in a browser; an API key made, used and revoked', {}, (web) => {
  // The first account signed up is the operator: the suite's page.
  const { open, everyTheme } = web;

  test('/signup and /login, signed out, and each with its errors', TIMEOUT, async () => {
    const anonymous = await newPage();
    try {
      const goto = async (path: string, heading: string) => {
        const res = await anonymous.goto(web.h.baseUrl + path);
        assert.equal(res?.status(), 200);
        assert.equal(await anonymous.getByRole('heading', { level: 1 }).innerText(), heading);
      };
      await goto('/signup', 'Create your account');
      await web.themes(anonymous);
      await expectNoSidewaysScrollAt320(anonymous);
      await anonymous.getByLabel('Email').fill('not an email');
      await anonymous.getByRole('button', { name: 'Create account' }).click();
      await anonymous.getByRole('heading', { name: 'There is a problem' }).waitFor();
      await web.themes(anonymous, { label: 'refused' });
      await goto('/login', 'Sign in');
      await web.themes(anonymous);
      await expectNoSidewaysScrollAt320(anonymous);
      await anonymous.getByLabel('Email').fill('nobody@example.com');
      await anonymous.getByLabel('Password').fill('wrong password');
      await anonymous.getByRole('button', { name: 'Sign in' }).last().click();
      await anonymous.getByText('The email or password is wrong.').first().waitFor();
      await web.themes(anonymous, { label: 'refused' });
      assert.deepEqual(blockedRequests(anonymous), []);
    } finally {
      await anonymous.close();
    }
  });

  test(
    '/account: profile, password, sessions (one, then two browsers), the delete page; a refused password change',
    TIMEOUT,
    async () => {
      await open('/account', 200, 'Account');
      await everyTheme('one session');
      // A second browser signed in to the same account: its row has a "Sign out" button.
      const elsewhere = await newPage();
      await elsewhere.goto(`${web.h.baseUrl}/login`);
      await elsewhere.getByLabel('Email').fill(web.email);
      await elsewhere.getByLabel('Password').fill(PASSWORD);
      await elsewhere.getByRole('button', { name: 'Sign in' }).last().click();
      await elsewhere.waitForURL(`${web.h.baseUrl}/dashboard`);
      await elsewhere.close();
      await open('/account', 200, 'Account');
      assert.equal(await web.page.getByRole('button', { name: /^Sign out .*, signed in / }).count(), 1);
      await everyTheme('two sessions');
      await web.page.getByLabel('Current password').fill('not my password');
      await web.page.getByLabel('New password', { exact: true }).fill('another good one');
      await web.page.getByLabel('New password again').fill('another good one');
      await web.page.getByRole('button', { name: 'Change password' }).click();
      await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
      await everyTheme('refused password change');
      await open('/account/delete', 200, 'Delete account');
      await everyTheme();
    },
  );

  test(
    'the API-key journey: create on /account/api-keys (shown once), use it against /api/v1/account, revoke it (401)',
    TIMEOUT,
    async () => {
      await open('/account/api-keys', 200, 'API keys');
      await everyTheme('no keys');
      await web.page.getByLabel('Name').fill('Reporting script');
      await web.page.getByRole('button', { name: 'Create key' }).click();
      await web.page.getByRole('heading', { name: 'Your new key' }).waitFor();
      const apiKey = await web.page.getByRole('textbox', { name: 'Your new key “Reporting script”' }).inputValue();
      assert.ok(apiKey.length > 20, 'a key is shown');
      await everyTheme('key shown');
      const use = () =>
        fetch(`${web.h.baseUrl}/api/v1/account`, {
          headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
        });
      const before = await use();
      assert.equal(before.status, 200);
      const account = (await before.json()) as { data: { email: string } };
      assert.match(account.data.email, /@example\.com$/);
      // Shown once: the list no longer holds it.
      await web.page.goto(`${web.h.baseUrl}/account/api-keys`);
      assert.ok(!(await web.page.locator('body').innerText()).includes(apiKey));
      await web.page.getByRole('button', { name: 'Revoke the key “Reporting script”' }).click();
      await web.page.getByRole('status').filter({ hasText: 'The key is revoked' }).waitFor();
      await everyTheme('a revoked key');
      assert.equal((await use()).status, 401);
    },
  );

  test(
    '/admin, /admin/accounts (a suspended one among them), an account’s delete page, /admin/links',
    TIMEOUT,
    async () => {
      const other = await web.h.account();
      const suspended = await web.h.account();
      await web.h.request('POST', '/api/v1/links', {
        key: other.key,
        form: { url: `${web.dest.base}/other-account`, alias: 'someone-else' },
      });
      await open('/admin/accounts', 200, 'Accounts');
      await web.page.getByRole('button', { name: `Suspend ${suspended.email}` }).click();
      await web.page.getByRole('status').waitFor();
      await everyTheme();
      await open('/admin', 200, 'Administration');
      await everyTheme();
      await open(`/admin/accounts/${other.id}/delete`, 200, 'Delete an account');
      await everyTheme();
      await open('/admin/links', 200, 'All links');
      assert.match(await web.page.locator('main').innerText(), /someone-else/);
      await everyTheme();
    },
  );
});
