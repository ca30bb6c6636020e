/**
 * The web app's journeys in a real Chromium, as people take them: sign up, make a link with
 * country targeting (rows added with the form's own button), follow it from a country (the
 * address comes in X-Forwarded-For, which TRUST_PROXY honours) and see the click on the
 * dashboard; bulk shortening with a bad line; bulk delete; editing; the main journey with
 * JavaScript off, with the keyboard alone, and on a phone.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockedRequests, closeBrowser, newPage, tabTo } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf, newEmail, signUpInBrowser } from '../support/web-browser.ts';
import { PASSWORD } from '../support/web-client.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };

onEachEngineInBrowser(
  'journeys through the web app in a browser',
  { env: { TRUST_PROXY: 'true', CLICK_FLUSH_INTERVAL_MS: '50' }, signedIn: false },
  (web) => {
    /** The path of a short URL shown as http://short.test/<alias> (APP_URL), on this server. */
    const onServer = (shortUrl: string) => `${web.h.baseUrl}${new URL(shortUrl).pathname}`;

    async function linksOf(email: string): Promise<{ id: number; url: string; alias: string; title: string | null }[]> {
      const res = await web.h.request('GET', '/api/v1/links?per_page=100', { key: await apiKeyOf(web.h, email) });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    }

    test(
      'sign up → a link with country targeting → followed from the US and Germany → the click on the dashboard',
      TIMEOUT,
      async () => {
        const page = await newPage();
        const email = await signUpInBrowser(page, web.h.baseUrl);
        assert.equal(await page.getByRole('status').innerText(), 'Your account is ready.');
        await page.getByRole('link', { name: 'Links', exact: true }).click();
        await page.getByRole('link', { name: 'Create your first link' }).click();
        await page.getByLabel('Destination URL').first().fill(`${web.dest.base}/everyone`);
        await page.locator('details.form-section > summary').filter({ hasText: 'Targeting & rules' }).click();
        await page.getByLabel('Send visitors by').selectOption({ label: 'Country' });
        // "Add a country" adds a row in the page (link-form-browser.test.ts: no request); what was typed stays.
        await page.getByRole('button', { name: 'Add a country' }).click();
        await page.locator('select[name="country[0][key]"]').waitFor();
        assert.equal(await page.getByLabel('Destination URL').first().inputValue(), `${web.dest.base}/everyone`);
        await page.locator('select[name="country[0][key]"]').selectOption('US');
        await page.locator('input[name="country[0][value]"]').fill(`${web.dest.base}/us`);
        await page.getByRole('button', { name: 'Add a country' }).click();
        await page.locator('select[name="country[1][key]"]').selectOption('GB');
        await page.locator('input[name="country[1][value]"]').fill(`${web.dest.base}/gb`);
        await page.getByRole('button', { name: 'Create link' }).last().click();
        await page.waitForURL(/\/links\/\d+\/edit$/);
        assert.equal(await page.getByRole('status').innerText(), 'Link created.');
        assert.equal(await page.locator('fieldset.target-row').count(), 2);
        const shortUrl = await page.locator('.link-summary a.url').innerText();
        const [link] = await linksOf(email);
        assert.equal(link?.url, `${web.dest.base}/everyone`);

        // Visitors: from the US (8.8.8.8) to the US page, from Germany to the default destination.
        const visitor = await newPage();
        await visitor.context().setExtraHTTPHeaders({ 'x-forwarded-for': '8.8.8.8' });
        await visitor.goto(onServer(shortUrl));
        await visitor.waitForURL(`${web.dest.base}/us`);
        await visitor.context().setExtraHTTPHeaders({ 'x-forwarded-for': '85.214.0.1' });
        await visitor.goto(onServer(shortUrl));
        await visitor.waitForURL(`${web.dest.base}/everyone`);
        assert.deepEqual(blockedRequests(visitor), []);
        await visitor.close();

        // Clicks are written in batches: each is recorded before its redirect is answered, and the
        // sink's flush is their write. The dashboard is opened once they are.
        await web.h.server.container.visits.sink.flush();
        await page.getByRole('link', { name: 'Dashboard' }).click();
        await page.waitForURL(`${web.h.baseUrl}/dashboard`);
        assert.match(await page.locator('main').innerText(), /Clicks today\s*2\b/);
        const top = page
          .getByRole('region', { name: 'Most-clicked links' })
          .or(page.locator('section', { has: page.getByRole('heading', { name: 'Most-clicked links' }) }));
        assert.match(await top.first().innerText(), new RegExp(new URL(shortUrl).pathname.slice(1)));
        await page.close();
      },
    );

    test(
      'bulk shortening with one bad line: that line shows its error, the others their short URLs',
      TIMEOUT,
      async () => {
        const page = await newPage();
        const email = await signUpInBrowser(page, web.h.baseUrl);
        await page.goto(`${web.h.baseUrl}/links/bulk`);
        await page
          .getByLabel('URLs, one per line')
          .fill(`${web.dest.base}/one\nnot a url at all\n${web.dest.base}/three`);
        await page.getByRole('button', { name: 'Shorten' }).click();
        await page.getByRole('heading', { name: 'Bulk shortening: result' }).waitFor();
        assert.match(await page.locator('main').innerText(), /2 created, 1 failed\./);
        const rows = page.locator('tbody tr');
        assert.equal(await rows.count(), 3);
        for (const i of [0, 2])
          assert.match(await rows.nth(i).locator('td').last().innerText(), /^http:\/\/short\.test\/\w+$/);
        const bad = rows.nth(1).locator('.field-error');
        assert.equal(await bad.count(), 1);
        assert.match(await bad.innerText(), /url/i);
        // "Copy all short URLs" is a script's button: with JavaScript on it is shown.
        assert.ok(await page.getByRole('button', { name: 'Copy all short URLs' }).isVisible());
        const made = await linksOf(email);
        assert.deepEqual(made.map((l) => l.url).sort(), [`${web.dest.base}/one`, `${web.dest.base}/three`]);
        // The result's short URLs lead where their lines said.
        await page.goto(onServer(await rows.nth(2).locator('a.url').innerText()));
        await page.waitForURL(`${web.dest.base}/three`);
        await page.close();
      },
    );

    test(
      'bulk delete on the links table: tick two rows, Delete, confirm (the confirmation page passes axe)',
      TIMEOUT,
      async () => {
        const page = await newPage();
        const email = await signUpInBrowser(page, web.h.baseUrl);
        const key = await apiKeyOf(web.h, email);
        for (const alias of ['keep-me', 'drop-one', 'drop-two']) {
          assert.equal(
            (await web.h.request('POST', '/api/v1/links', { key, form: { url: `${web.dest.base}/${alias}`, alias } }))
              .status,
            201,
          );
        }
        await page.goto(`${web.h.baseUrl}/links`);
        await page.getByRole('checkbox', { name: 'Select http://short.test/drop-one' }).check();
        await page.getByRole('checkbox', { name: 'Select http://short.test/drop-two' }).check();
        await page.getByLabel('Action', { exact: true }).selectOption('delete');
        await page.getByRole('button', { name: 'Apply to links' }).click();
        await page.getByRole('heading', { name: 'Delete links' }).waitFor();
        await web.themes(page, { label: 'confirm bulk delete' });
        await page.getByRole('button', { name: 'Delete 2 links' }).click();
        await page.waitForURL(/\/links(\?|$)/);
        assert.equal(await page.getByRole('status').innerText(), '2 links deleted.');
        assert.equal(await page.locator('tbody tr').count(), 1);
        assert.deepEqual(
          (await linksOf(email)).map((l) => l.alias),
          ['keep-me'],
        );
        await page.close();
      },
    );

    test(
      'edit a link: a new title and alias are saved, the old short URL stops, the new one works',
      TIMEOUT,
      async () => {
        const page = await newPage();
        const email = await signUpInBrowser(page, web.h.baseUrl);
        const key = await apiKeyOf(web.h, email);
        assert.equal(
          (
            await web.h.request('POST', '/api/v1/links', {
              key,
              form: { url: `${web.dest.base}/edited`, alias: 'before-edit' },
            })
          ).status,
          201,
        );
        await page.goto(`${web.h.baseUrl}/links`);
        // Row actions are in the row's menu.
        await page.locator('summary[aria-label="Actions for http://short.test/before-edit"]').click();
        await page.getByRole('link', { name: 'Edit http://short.test/before-edit' }).click();
        await page.getByLabel('Title', { exact: true }).fill('Spring sale');
        await page.getByLabel('Alias').fill('after-edit');
        await page.getByRole('button', { name: 'Save changes' }).last().click();
        await page.waitForURL(`${web.h.baseUrl}/links`);
        assert.equal(await page.getByRole('status').innerText(), 'Changes saved.');
        assert.match(await page.locator('tbody tr').first().innerText(), /short\.test\/after-edit[\s\S]*Spring sale/);
        const [link] = await linksOf(email);
        assert.deepEqual([link?.alias, link?.title], ['after-edit', 'Spring sale']);
        assert.equal((await page.goto(`${web.h.baseUrl}/before-edit`))?.status(), 404);
        await page.goto(`${web.h.baseUrl}/after-edit`);
        await page.waitForURL(`${web.dest.base}/edited`);
        await page.close();
      },
    );

    test('the main journey with JavaScript off: sign up, create a link, see it in the table', TIMEOUT, async () => {
      const page = await newPage({ javaScriptEnabled: false });
      const email = await signUpInBrowser(page, web.h.baseUrl);
      await page.getByRole('link', { name: 'Links', exact: true }).click();
      await page.getByRole('link', { name: 'New link' }).first().click();
      await page.getByLabel('Destination URL').first().fill(`${web.dest.base}/no-script`);
      await page.getByLabel('Alias').fill('no-script');
      // A targeting row, added and removed without a script (its section unfolded by the browser).
      await page.locator('details.form-section > summary').filter({ hasText: 'Targeting & rules' }).click();
      await page.getByRole('button', { name: 'Add a country' }).click();
      await page.locator('select[name="country[0][key]"]').waitFor();
      await page.getByRole('button', { name: 'Remove country 1' }).click();
      await page.locator('fieldset.target-row').first().waitFor({ state: 'detached' });
      assert.equal(await page.getByLabel('Alias').inputValue(), 'no-script');
      await page.getByRole('button', { name: 'Create link' }).last().click();
      await page.waitForURL(/\/links\/\d+\/edit$/);
      await page.getByRole('link', { name: 'Back to links' }).click();
      assert.match(await page.locator('tbody tr').first().innerText(), /short\.test\/no-script/);
      // The copy button needs a script: without one it is not offered.
      assert.equal(await page.getByRole('button', { name: 'Copy' }).count(), 0);
      assert.deepEqual(
        (await linksOf(email)).map((l) => l.alias),
        ['no-script'],
      );
      await page.close();
    });

    test(
      'the main journey by keyboard alone (Tab, Enter, Space, typing): sign up, create a link, see it in the table',
      TIMEOUT,
      async () => {
        const page = await newPage();
        const email = newEmail();
        await page.goto(`${web.h.baseUrl}/signup`);
        // The skip link comes first and takes focus to the main content.
        await tabTo(page, 'Skip to content');
        await page.keyboard.press('Enter');
        await tabTo(page, 'Name');
        await page.keyboard.type('Keyboard User');
        await tabTo(page, 'Email', { max: 2 });
        await page.keyboard.type(email);
        await tabTo(page, /^Password/, { max: 2 });
        await page.keyboard.type(PASSWORD);
        await tabTo(page, 'Create account', { max: 3 });
        await page.keyboard.press('Enter');
        await page.waitForURL(`${web.h.baseUrl}/dashboard`);
        await tabTo(page, 'Links', { max: 6 });
        await page.keyboard.press('Enter');
        await page.waitForURL(`${web.h.baseUrl}/links`);
        await tabTo(page, 'Create your first link', { max: 30 });
        await page.keyboard.press('Enter');
        await page.waitForURL(`${web.h.baseUrl}/links/new`);
        await tabTo(page, /^Destination URL/, { max: 30 });
        await page.keyboard.type(`${web.dest.base}/by-keys`);
        await tabTo(page, /^Alias/, { max: 4 });
        await page.keyboard.type('by-keys');
        // A folded section opened by Enter on its summary, then a checkbox by Space: the link is
        // created disabled.
        for (let i = 0; i < 6; i++) {
          await page.keyboard.press('Tab');
          const text = await page.evaluate(() => document.activeElement?.textContent ?? '');
          if (text.startsWith('Protection')) break;
        }
        await page.keyboard.press('Enter');
        await tabTo(page, /^Disabled/, { max: 4 });
        await page.keyboard.press('Space');
        assert.equal(await page.locator('#f-disabled').isChecked(), true);
        // Enter in a text field submits with the form's main button, never a row's "Remove".
        await tabTo(page, /^Statistics password/, { max: 12 });
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/links\/\d+\/edit$/);
        assert.equal(await page.getByRole('status').innerText(), 'Link created.');
        await tabTo(page, 'Back to links', { max: 30 });
        await page.keyboard.press('Enter');
        await page.waitForURL(`${web.h.baseUrl}/links`);
        assert.match(await page.locator('tbody tr').first().innerText(), /short\.test\/by-keys[\s\S]*Disabled/);
        const [link] = await linksOf(email);
        assert.equal(link?.alias, 'by-keys');
        await page.close();
      },
    );

    test(
      'on a phone (390 px, touch): sign up, shorten from the dashboard, see the link in the table',
      TIMEOUT,
      async () => {
        const page = await newPage({ viewport: 'mobile' });
        const email = newEmail();
        await page.goto(`${web.h.baseUrl}/signup`);
        await page.getByLabel('Name').fill('Phone User');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).tap();
        await page.waitForURL(`${web.h.baseUrl}/dashboard`);
        await page.getByLabel('URL', { exact: true }).fill(`${web.dest.base}/from-phone`);
        await page.getByRole('button', { name: 'Shorten' }).tap();
        await page.getByRole('status').filter({ hasText: 'Short link created' }).waitFor();
        // The focus stays by the form, on the new link (the fragment names the field itself, so
        // the browser's own fragment focusing lands on it), with its Copy button.
        await page.locator('#quick-made:focus').waitFor();
        assert.ok(await page.getByRole('button', { name: /^Your new short link: / }).isVisible(), 'a Copy button');
        await web.themes(page, { label: 'after quick shorten' });
        // On a phone the navigation is behind its Menu button.
        await page.getByText('Menu', { exact: true }).tap();
        await page.getByRole('link', { name: 'Links', exact: true }).tap();
        await page.waitForURL(`${web.h.baseUrl}/links`);
        const row = page.locator('tbody tr').first();
        assert.match(await row.innerText(), /from-phone/);
        // A card per link: nothing scrolls sideways, the page nor the list.
        const overflow = await page.locator('html').evaluate((el) => el.scrollWidth - el.clientWidth);
        assert.equal(overflow, 0, 'the page does not scroll sideways');
        assert.ok(await row.locator('.short-url').isVisible());
        await row.getByRole('link', { name: /clicks: statistics of / }).tap();
        await page.getByRole('heading', { level: 1 }).waitFor();
        assert.match(page.url(), /\/stats\/\d+/);
        assert.equal((await linksOf(email)).length, 1);
        await page.close();
      },
    );
  },
);
