/**
 * Every screen of the web app's links, pixels, spaces and domains in a real Chromium, as a signed-in account with data sees it (a
 * chart with clicks, a table with rows, targeting rows, a domain): axe finds no WCAG 2.2 AA
 * violation in the light and dark themes and at 390 px, form fields stand out from the page,
 * and nothing scrolls sideways at 390 px nor at 320 px (a table scrolls inside its wrapper).
 * Error states are checked too: a refused form (422), the 404 and the 403 (a forged form).
 * Sign-up, sign-in, the account and admin screens: web-app-account-browser.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkEveryTheme, closeBrowser, newPage } from '../support/browser.ts';
import { onEachEngineInBrowser } from '../support/web-app-suite.ts';
import { apiKeyOf, contrast, expectNoSidewaysScrollAt320 } from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

onEachEngineInBrowser(
  'every screen of the web app in a browser: axe in light, dark and at 390 px; 320 px wide',
  { env: { TRUST_PROXY: 'true' } },
  (web) => {
    const { open, assertHeading, everyTheme } = web;
    let key: string;
    let targeted: number;
    let domain: number;
    let pixel: number;
    let space: number;

    before(async () => {
      const { h, dest } = web;
      key = await apiKeyOf(h, web.email);
      const made = async (path: string, form: Record<string, unknown>): Promise<number> => {
        const res = await h.request('POST', path, { key, form });
        assert.equal(res.status, 201, `${path}: ${res.text}`);
        return res.body.data.id as number;
      };
      pixel = await made('/api/v1/pixels', { name: 'Shop pixel', type: 'facebook', value: '123456789' });
      space = await made('/api/v1/spaces', { name: 'Spring campaign', color: 2 });
      domain = await made('/api/v1/domains', { name: 'go.example.com', index_page: `${dest.base}/home` });
      targeted = await made('/api/v1/links', {
        url: `${dest.base}/everyone`,
        title: 'A link with a rather long title, to see how the table wraps it on a narrow screen',
        space,
        target_type: 1,
        country: [
          { key: 'US', value: `${dest.base}/us` },
          { key: 'GB', value: `${dest.base}/gb` },
        ],
      });
      // (A link with a pixel asks for consent first: the clicked one has none.)
      for (let i = 0; i < 4; i++) {
        await made('/api/v1/links', {
          url: `${dest.base}/page-${i}/${'long-path-segment-'.repeat(4)}`,
          alias: `plain-${i}`,
          ...(i === 0 ? { pixels: [pixel] } : {}),
        });
      }
      // Clicks for the dashboard's chart and its most-clicked list.
      const alias = (await h.request('GET', `/api/v1/links/${targeted}`, { key })).body.data.alias as string;
      for (const ip of ['8.8.8.8', '81.2.69.160', '85.214.0.1']) {
        const res = await fetch(`${h.baseUrl}/${alias}`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip },
        });
        assert.equal(res.status, 302, `a visit from ${ip}`);
      }
      await h.server.container.visits.sink.flush();
    });

    test('/dashboard with clicks: the chart (SVG and its data table), the totals, the lists', TIMEOUT, async () => {
      await open('/dashboard', 200, 'Dashboard');
      assert.ok((await web.page.locator('main svg').count()) > 0, 'a chart');
      assert.ok((await web.page.locator('main table').count()) > 0, 'the chart’s data table');
      assert.match(await web.page.locator('main').innerText(), /Clicks today\s*3/);
      await web.themes(web.page, {
        // The bars stand out from the page (WCAG 1.4.11: a graphic needed to understand the chart).
        check: async (_, theme) => {
          const { bars, background } = await web.page.locator('main').evaluate((main) => ({
            bars: [...new Set([...main.querySelectorAll('.chart-bar')].map((b) => getComputedStyle(b).fill))],
            background: getComputedStyle(document.body).backgroundColor,
          }));
          assert.ok(bars.length > 0, 'bars');
          for (const fill of bars)
            assert.ok(
              contrast(fill, background) >= 3,
              `${theme.label}: bars ${fill} on ${background}: ${contrast(fill, background).toFixed(2)}:1`,
            );
        },
      });
      await expectNoSidewaysScrollAt320(web.page);
    });

    test('/links with rows: the table, its filters and bulk actions', TIMEOUT, async () => {
      await open('/links', 200, 'Links');
      assert.equal(await web.page.locator('tbody tr').count(), 5);
      // The bulk bar shows once a row is ticked.
      await web.page.locator('tbody tr').first().getByRole('checkbox').check();
      await web.page.locator('[data-bulk-bar]').waitFor();
      await web.themes(web.page, {
        // The radio beside a label that wraps keeps its shape (it shrank to an ellipse at 390 px).
        check: async () => {
          const box = await web.page.locator('#f-scope-matching').boundingBox();
          assert.ok(box && Math.abs(box.width - box.height) < 0.5, `the radio is ${box?.width} × ${box?.height}`);
        },
      });
      await expectNoSidewaysScrollAt320(web.page);
    });

    test(
      '/links/new, and again after a refused submit (422: the summary and the field’s message)',
      TIMEOUT,
      async () => {
        await open('/links/new', 200, 'New link');
        await everyTheme();
        await web.page.getByLabel('Destination URL', { exact: true }).first().fill('not a url');
        await web.page.getByRole('button', { name: 'Create link' }).last().click();
        await web.page.getByRole('heading', { name: 'There is a problem' }).waitFor();
        await everyTheme('refused');
      },
    );

    test('/links/{id}/edit with country targeting rows', TIMEOUT, async () => {
      await open(`/links/${targeted}/edit`, 200, 'Edit link');
      assert.equal(await web.page.locator('fieldset.target-row').count(), 2);
      await everyTheme();
    });

    test('/links/{id}/delete', TIMEOUT, async () => {
      await open(`/links/${targeted}/delete`, 200, /Delete link/);
      await everyTheme();
    });

    test('/links/{id}/qr: the SVG preview and its settings', TIMEOUT, async () => {
      await open(`/links/${targeted}/qr`, 200, 'QR code');
      await everyTheme();
      // A low-contrast choice shows its warning: that state too.
      await web.page.getByLabel('Code colour').fill('#dddddd');
      await web.page.getByRole('button', { name: 'Update preview' }).click();
      await web.page.getByText(/Low contrast/).waitFor();
      await everyTheme('low-contrast warning');
    });

    test('/links/bulk and its result page (one line refused)', TIMEOUT, async () => {
      await open('/links/bulk', 200, 'Shorten many links');
      await everyTheme();
      await web.page
        .getByLabel('URLs, one per line')
        .fill(`${web.dest.base}/bulk-a\nnot a url\n${web.dest.base}/bulk-b`);
      await web.page.getByRole('button', { name: 'Shorten' }).click();
      await assertHeading('Bulk shortening: result');
      await everyTheme('result');
    });

    test('/pixels and /pixels/new and a pixel’s edit page', TIMEOUT, async () => {
      await open('/pixels', 200, 'Pixels');
      await everyTheme();
      await open('/pixels/new', 200, 'New pixel');
      await everyTheme();
      await open(`/pixels/${pixel}/edit`, 200, 'Edit pixel Shop pixel');
      await everyTheme();
    });

    test('/spaces and /spaces/new and a space’s edit page', TIMEOUT, async () => {
      await open('/spaces', 200, 'Spaces');
      await everyTheme();
      await open('/spaces/new', 200, 'New space');
      await everyTheme();
      await open(`/spaces/${space}/edit`, 200, 'Edit space Spring campaign');
      await everyTheme();
    });

    test('/domains and /domains/new and a domain’s page (verification pending)', TIMEOUT, async () => {
      await open('/domains', 200, 'Domains');
      await everyTheme();
      await open('/domains/new', 200, 'New domain');
      await everyTheme();
      await open(`/domains/${domain}/edit`, 200, 'Domain go.example.com');
      await everyTheme();
    });

    test('the 404 page (an id that is not the account’s, and an unknown path)', TIMEOUT, async () => {
      await open('/links/999999/edit', 404, 'Page not found');
      await everyTheme();
      await open('/no-such-screen/at-all', 404, /not found/i);
      await everyTheme('unknown path');
    });

    test('the 403 page: a form whose CSRF token was tampered with', TIMEOUT, async () => {
      await open('/spaces/new', 200, 'New space');
      await web.page
        .locator('form.stack input[name="_csrf"], main form input[name="_csrf"]')
        .first()
        .evaluate((el) => ((el as HTMLInputElement).value = 'forged'));
      await web.page.getByLabel('Name').fill('Never saved');
      const [res] = await Promise.all([
        web.page.waitForResponse((r) => r.request().method() === 'POST'),
        web.page
          .locator('main')
          .getByRole('button', { name: /Create|Save/ })
          .click(),
      ]);
      assert.equal(res.status(), 403);
      await assertHeading('Request refused');
      await everyTheme();
      const spaces = await web.h.request('GET', '/api/v1/spaces', { key });
      assert.ok(!spaces.text.includes('Never saved'), 'nothing written');
    });
  },
);

test(
  'the field check reads the pixels of a checkbox or radio the browser draws: a plain one passes, a faint one fails',
  TIMEOUT,
  async () => {
    const fixture = await newPage();
    try {
      const doc = (extra: string) =>
        `<!doctype html><html lang="en"><title>Boxes</title><main><h1>Boxes</h1><label><input type="checkbox"> One</label> <label><input type="radio" name="r"> Two</label>${extra}</main></html>`;
      await fixture.setContent(doc(''));
      await checkEveryTheme(fixture);
      await fixture.setContent(
        doc(' <label><input type="radio" name="r" id="faint" style="opacity:0.3"> Three</label>'),
      );
      await assert.rejects(
        checkEveryTheme(fixture),
        /\[light\] form fields hard to make out .*:\n {2}input#faint: drawn by the browser, 0 of \d+ pixels at 3:1 or more \(\d+ needed\)$/s,
      );
    } finally {
      await fixture.close();
    }
  },
);
