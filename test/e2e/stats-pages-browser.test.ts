/**
 * The statistics pages (issue 17) in a real Chromium: the owner sees visits from three countries
 * (addresses in X-Forwarded-For, honoured with TRUST_PROXY) on the world map and in the table; a
 * public page (privacy 0) in a fresh context with no cookie, its rare values folded into "Other"
 * (issue 30); a password page (privacy 2) unlocked
 * with its password; a private one (privacy 1) answers 404. axe on each, in every theme.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ENGINES, startHarness, type Harness } from '../support/harness.ts';
import {
  axeRulesIn,
  blockedRequests,
  closeBrowser,
  expectNoAxeViolations,
  newPage,
  themeCheckOn,
} from '../support/browser.ts';
import {
  apiKeyOf,
  contrast,
  expectNoSidewaysScrollAt320,
  signUpInBrowser,
  startDestination,
  type Destination,
} from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };
const VISITS = [
  { ip: '8.8.8.8', country: 'United States' },
  { ip: '81.2.69.160', country: 'United Kingdom' },
  { ip: '85.214.0.1', country: 'Germany' },
  { ip: '85.214.0.1', country: 'Germany' },
];

// On both engines: the numbers come from each one's rollup queries.
for (const engine of ENGINES) {
  describe(`the statistics pages in a browser [${engine.name}]`, { skip: engine.skip ?? false }, () => {
    // The themes and axe on SQLite's pass only.
    const themes = themeCheckOn(engine.name);
    let h: Harness;
    let dest: Destination;
    let owner: Page;
    let ownerEmail: string;
    let key: string;
    const links: Record<'public' | 'private' | 'locked' | 'locked2', { id: number; alias: string }> = {} as never;

    before(async () => {
      h = await startHarness(engine.name, { env: { TRUST_PROXY: 'true', CLICK_FLUSH_INTERVAL_MS: '50' } });
      dest = await startDestination();
      owner = await newPage();
      ownerEmail = await signUpInBrowser(owner, h.baseUrl);
      key = await apiKeyOf(h, ownerEmail);
      const make = async (form: Record<string, unknown>) => {
        const res = await h.request('POST', '/api/v1/links', { key, form: { url: `${dest.base}/landing`, ...form } });
        assert.equal(res.status, 201, res.text);
        return { id: res.body.data.id as number, alias: res.body.data.alias as string };
      };
      links.public = await make({ privacy: 0, title: 'Public numbers' });
      links.private = await make({ privacy: 1 });
      links.locked = await make({ privacy: 2, privacy_password: 'open sesame' });
      links.locked2 = await make({ privacy: 2, privacy_password: 'open sesame' });
      // Visitors in a browser, each from its country's address.
      const visitor = await newPage();
      for (const v of VISITS) {
        await visitor.context().setExtraHTTPHeaders({ 'x-forwarded-for': v.ip, 'accept-language': 'en-GB' });
        await visitor.goto(`${h.baseUrl}/${links.public.alias}`);
        await visitor.waitForURL(`${dest.base}/landing`);
      }
      await visitor.goto(`${h.baseUrl}/${links.locked.alias}`);
      await visitor.close();
      // Each click is recorded before its redirect is answered; the sink's flush is their write.
      await h.server.container.visits.sink.flush();
      const counted = await h.request('GET', `/api/v1/links/${links.public.id}`, { key });
      assert.equal(counted.body.data.clicks, VISITS.length, 'the clicks are written');
    });

    after(async () => {
      await owner?.close();
      await h?.close();
      await dest?.close();
    });

    /** The busiest countries' shade (map-bucket-5) stands out from the page: 3:1 (WCAG 1.4.11). */
    async function busiestStandOut(page: Page): Promise<void> {
      const { fills, page: background } = await page.locator('main').evaluate((main) => ({
        fills: [...main.querySelectorAll('path.map-bucket-5')].map((p) => getComputedStyle(p).fill),
        page: getComputedStyle(document.body).backgroundColor,
      }));
      assert.ok(fills.length > 0, 'a busiest bucket');
      for (const fill of fills) {
        const ratio = contrast(fill, background);
        assert.ok(ratio >= 3, `the busiest countries' ${fill} on ${background}: ${ratio.toFixed(2)}:1`);
      }
    }

    async function mapTitles(page: Page): Promise<string[]> {
      return page.locator('path[class*="map-bucket-"] > title').allTextContents();
    }

    test(
      'the owner: the overview with its totals and top countries, then the countries map and table',
      TIMEOUT,
      async () => {
        const res = await owner.goto(`${h.baseUrl}/stats/${links.public.id}`);
        assert.equal(res?.status(), 200);
        assert.match(await owner.getByRole('heading', { level: 1 }).innerText(), /Public numbers/);
        assert.equal(await owner.locator('[data-stat="total"]').innerText(), '4');
        assert.equal(await owner.locator('[data-stat="unique"]').innerText(), '3');
        await themes(owner);
        await expectNoSidewaysScrollAt320(owner);

        await owner
          .getByRole('link', { name: /^(See all countries|Countries)$/ })
          .first()
          .click();
        await owner.waitForURL(new RegExp(`/stats/${links.public.id}/countries`));
        // On the map: a shaded path per country, named by its <title>.
        assert.deepEqual((await mapTitles(owner)).sort(), [
          'Germany: 2 clicks',
          'United Kingdom: 1 click',
          'United States: 1 click',
        ]);
        // And in the one table under it (the map prints none of its own), the busiest first.
        const tables = owner.locator('main table').filter({ has: owner.locator('th', { hasText: 'Country' }) });
        assert.equal(await tables.count(), 1);
        for (const table of await tables.all()) {
          const rows = await table.locator('tbody tr').allInnerTexts();
          assert.deepEqual(
            rows.map((r) => r.split('\t').slice(0, 2).join(' ')),
            ['Germany 2', 'United Kingdom 1', 'United States 1'],
          );
        }
        await themes(owner, { label: 'countries', check: busiestStandOut });
        await expectNoSidewaysScrollAt320(owner);
        // The theme switch (JavaScript submits it on change): dark on a light system, light on a dark one.
        for (const [choice, system] of [
          ['Dark', 'light'],
          ['Light', 'dark'],
        ] as const) {
          await owner.emulateMedia({ colorScheme: system });
          // The theme is in the account menu, which the reload after each choice closes.
          await owner.locator('details.account-menu > summary').click();
          await owner.getByLabel('Theme').selectOption({ label: choice });
          await owner.waitForFunction((t) => document.documentElement.dataset.theme === t, choice.toLowerCase());
          // A choice changes only colours, and `themes` just checked the page whole.
          if (engine.name === 'sqlite')
            await expectNoAxeViolations(owner, { colourOnly: true, label: `${choice} chosen, ${system} system` });
          await busiestStandOut(owner);
        }
        await owner.locator('details.account-menu > summary').click();
        await owner.getByLabel('Theme').selectOption({ label: 'System' });
        await owner.waitForFunction(() => document.documentElement.dataset.theme === undefined);
        await owner.emulateMedia({ colorScheme: null });
        assert.deepEqual(blockedRequests(owner), []);
      },
    );

    /**
     * At 375 px in both themes: axe (in dark, its colour rules), no sideways scroll, and the
     * chart's labels drawn at 12 px at least (SVG text scales with its viewBox); at 1280 × 800
     * axe's layout rules (the rest it just read at 375 px) and the headline on the first screen.
     */
    async function phoneAndDesktop(page: Page, label: string): Promise<void> {
      const viewport = page.viewportSize();
      try {
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize({ width: 375, height: 812 });
          if (engine.name === 'sqlite')
            await expectNoAxeViolations(page, {
              ...axeRulesIn(colorScheme),
              label: `${label}, ${colorScheme}, 375 px`,
            });
          const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
          assert.equal(overflow, 0, `${label} scrolls sideways at 375 px`);
          const sizes = await page.locator('main').evaluate((main) =>
            [...main.querySelectorAll('svg.chart-svg text')]
              .filter((t) => getComputedStyle(t).display !== 'none')
              .map((t) => {
                const svg = t.closest('svg')!;
                return (
                  (parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width) /
                  svg.viewBox.baseVal.width
                );
              }),
          );
          for (const size of sizes)
            assert.ok(size >= 12, `${label}: a chart label drawn at ${size.toFixed(1)} px at 375 px`);
          await page.setViewportSize({ width: 1280, height: 800 });
          if (engine.name === 'sqlite')
            await expectNoAxeViolations(page, {
              ...(colorScheme === 'light' ? { layoutOnly: true } : axeRulesIn(colorScheme)),
              label: `${label}, ${colorScheme}, 1280 px`,
            });
          if (label.endsWith('overview')) {
            const top = await page.locator('[data-stat="total"]').evaluate((e) => e.getBoundingClientRect().bottom);
            assert.ok(top < 800, `${label}: the clicks figure on the first screen at 1280 × 800 (${top} px)`);
          }
        }
      } finally {
        await page.emulateMedia({ colorScheme: null });
        if (viewport) await page.setViewportSize(viewport);
      }
    }

    test(
      'the owner: a clicked country filters the whole page, shown as a chip that removes it; the tabs at 375 and 1280 px',
      TIMEOUT,
      async () => {
        await owner.goto(`${h.baseUrl}/stats/${links.public.id}`);
        await phoneAndDesktop(owner, 'overview');
        // The chart's numbers one click away, not printed beside it.
        const chartTable = owner.locator('main figure.chart-time-series table');
        assert.equal(await chartTable.isVisible(), false);
        await owner.locator('main figure.chart-time-series summary', { hasText: 'Show as table' }).click();
        assert.equal(await chartTable.isVisible(), true);

        await owner.getByRole('link', { name: 'Germany: filter by this country' }).click();
        await owner.waitForURL(/country=DE/);
        assert.equal(await owner.locator('[data-stat="total"]').innerText(), '2');
        assert.deepEqual((await mapTitles(owner)).sort(), ['Germany: 2 clicks']);
        const chip = owner.locator('.stats-chip');
        assert.match(await chip.innerText(), /Country: Germany/);
        await phoneAndDesktop(owner, 'filtered overview');
        await owner.getByRole('link', { name: 'Remove filter Country: Germany' }).click();
        await owner.waitForURL((url) => !url.search.includes('country='));
        assert.equal(await owner.locator('[data-stat="total"]').innerText(), '4');
        assert.equal(await owner.locator('.stats-chip').count(), 0);

        for (const tab of ['countries', 'hours', 'referrers']) {
          await owner.goto(`${h.baseUrl}/stats/${links.public.id}/${tab}`);
          await phoneAndDesktop(owner, tab);
        }
      },
    );

    test(
      'privacy 0: a fresh context sees the numbers and the map, nothing of the owner, no cookie, noindex',
      TIMEOUT,
      async () => {
        const page = await newPage();
        try {
          const res = await page.goto(`${h.baseUrl}/stats/${links.public.id}`);
          assert.equal(res?.status(), 200);
          assert.equal(await page.locator('[data-stat="total"]').innerText(), '4');
          assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex');
          const text = await page.locator('body').innerText();
          assert.ok(!text.includes(ownerEmail), 'no owner email');
          assert.equal(await page.getByRole('link', { name: 'Edit link' }).count(), 0);
          assert.equal(
            await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Links' }).count(),
            0,
          );
          await themes(page, { label: 'public' });
          await page.goto(`${h.baseUrl}/stats/${links.public.id}/countries`);
          // Three countries of fewer than STATS_MIN_COUNT (5) clicks each: none shaded on the map,
          // one "Other" row in the table (the owner's test above sees them by name).
          assert.equal((await mapTitles(page)).length, 0);
          const rows = await page.locator('main table.stats-table tbody tr').allInnerTexts();
          assert.deepEqual(
            rows.map((r) => r.split('\t').slice(0, 2).join(' ')),
            ['Other 4'],
          );
          assert.equal(await page.getByText(/values with fewer than 5 clicks are shown together/).count(), 1);
          await themes(page, { label: 'public countries' });
          await expectNoSidewaysScrollAt320(page);
          assert.deepEqual(await page.context().cookies(), [], 'no cookie at all');
        } finally {
          await page.close();
        }
      },
    );

    test(
      'privacy 2: the password page, a wrong password, the right one unlocks this link’s stats only',
      TIMEOUT,
      async () => {
        const page = await newPage();
        try {
          const res = await page.goto(`${h.baseUrl}/stats/${links.locked.id}`);
          assert.equal(res?.status(), 200);
          assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Protected statistics');
          assert.equal(await page.locator('[data-stat="total"]').count(), 0, 'no numbers before the password');
          await themes(page, { label: 'password' });
          await expectNoSidewaysScrollAt320(page);
          await page.getByLabel('Password').fill('not it');
          await page.getByRole('button', { name: 'Show statistics' }).click();
          await page.getByText('The password is wrong.').first().waitFor();
          assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
          await themes(page, { label: 'wrong password' });
          await page.getByLabel('Password').fill('open sesame');
          await page.getByRole('button', { name: 'Show statistics' }).click();
          await page.locator('[data-stat="total"]').waitFor();
          assert.equal(await page.locator('[data-stat="total"]').innerText(), '1');
          await themes(page, { label: 'unlocked' });
          const unlock = (await page.context().cookies()).filter(
            (c) => c.value !== '' && c.httpOnly && c.path.includes(`/stats/${links.locked.id}`),
          );
          assert.equal(unlock.length, 1, 'an HttpOnly cookie for this link’s stats');
          // The same password does not open another link's page.
          await page.goto(`${h.baseUrl}/stats/${links.locked2.id}`);
          assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Protected statistics');
        } finally {
          await page.close();
        }
      },
    );

    test('privacy 1: a fresh context gets the 404 page, which passes axe', TIMEOUT, async () => {
      const page = await newPage();
      try {
        const res = await page.goto(`${h.baseUrl}/stats/${links.private.id}`);
        assert.equal(res?.status(), 404);
        await themes(page, { label: 'private' });
      } finally {
        await page.close();
      }
    });
  });
}
