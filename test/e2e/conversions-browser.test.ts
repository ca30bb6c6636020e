/**
 * A link's conversions in a real Chromium (docs/web.md): the results table of /links/{id}/conversions
 * and of the statistics overview. At 375 px the table scrolls in its own box and no cell lies over
 * another (no column squeezed to a letter a line, no header printed over the next); at 1280 px a
 * long destination is cut short, whole in its title, and ends before the Clicks column. Amounts
 * read in their currency. SQLite alone: what is checked is the layout, which no engine changes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startHarness, type Harness } from '../support/harness.ts';
import { closeBrowser, newPage, themeCheckOn } from '../support/browser.ts';
import {
  apiKeyOf,
  expectNoSidewaysScrollAt320,
  signUpInBrowser,
  startDestination,
  type Destination,
} from '../support/web-browser.ts';

after(closeBrowser);

const TIMEOUT = { timeout: 60_000 };
const LONG = `/landing/${'a-very-long-product-path-'.repeat(6)}?utm_source=newsletter&utm_campaign=winter`;

interface Overlap {
  row: number;
  a: string;
  b: string;
}

/**
 * Pairs of cells in one row whose boxes overlap (half a pixel of rounding allowed), and cells whose
 * content runs out of them over the next one (b: "overflows"), as text squeezed into a fixed column does.
 */
async function overlappingCells(page: Page, table: string): Promise<Overlap[]> {
  return page.locator(table).evaluate((t) => {
    const out: { row: number; a: string; b: string }[] = [];
    [...t.querySelectorAll('tr')].forEach((tr, row) => {
      const cells = [...tr.children].map((c) => ({
        text: (c.textContent ?? '').trim(),
        box: c.getBoundingClientRect(),
        overflows: c.scrollWidth > c.clientWidth + 1,
      }));
      cells.forEach((c, i) => {
        if (c.overflows) out.push({ row, a: c.text, b: 'overflows' });
        const next = cells[i + 1];
        if (next && c.box.right > next.box.left + 0.5) out.push({ row, a: c.text, b: next.text });
      });
    });
    return out;
  });
}

/** Header cells whose text wraps: taller than one line of their own text. */
async function wrappedHeaders(page: Page, table: string): Promise<string[]> {
  return page.locator(table).evaluate((t) =>
    [...t.querySelectorAll('thead th')]
      .filter((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return range.getClientRects().length > 1;
      })
      .map((th) => (th.textContent ?? '').trim()),
  );
}

describe('the conversions table in a browser', () => {
  const themes = themeCheckOn('sqlite');
  let h: Harness;
  let dest: Destination;
  let owner: Page;
  let link: { id: number; alias: string };

  before(async () => {
    h = await startHarness('sqlite', { env: { CLICK_FLUSH_INTERVAL_MS: '50' } });
    dest = await startDestination();
    owner = await newPage();
    const key = await apiKeyOf(h, await signUpInBrowser(owner, h.baseUrl));
    const split = [
      {
        name: 'Winter sale landing pages',
        when: {},
        split: [
          { url: `${dest.base}${LONG}&v=a`, weight: 50 },
          { url: `${dest.base}${LONG}&v=b`, weight: 50 },
        ],
      },
    ];
    const res = await h.request('POST', '/api/v1/links', {
      key,
      json: { url: `${dest.base}/landing`, track_conversions: 1, rules: split },
    });
    assert.equal(res.status, 201, res.text);
    link = { id: res.body.data.id, alias: res.body.data.alias };
    // Visits in a browser (a script's User-Agent is a bot's, which gets no click id).
    const visitor = await newPage();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      await visitor.goto(`${h.baseUrl}/${link.alias}`);
      await visitor.waitForURL(/lpx_cid=/);
      ids.push(new URL(visitor.url()).searchParams.get('lpx_cid')!);
    }
    await visitor.close();
    const sent: [number, string][] = [
      [200, 'EUR'],
      [49.5, 'EUR'],
      [10, 'USD'],
    ];
    for (const [i, [value, currency]] of sent.entries()) {
      const c = await h.request('POST', '/api/v1/conversions', {
        key,
        json: { click_id: ids[i], name: 'sale', value, currency },
      });
      assert.equal(c.status, 201, c.text);
    }
    await h.server.container.visits.sink.flush();
  });

  after(async () => {
    await owner?.close();
    await h?.close();
    await dest?.close();
  });

  test('at 375 px the table scrolls in its box, its cells side by side, headers on one line', TIMEOUT, async () => {
    await owner.setViewportSize({ width: 375, height: 800 });
    const res = await owner.goto(`${h.baseUrl}/links/${link.id}/conversions`);
    assert.equal(res?.status(), 200);
    const table = 'main table.conversions-table';
    assert.deepEqual(await overlappingCells(owner, table), []);
    assert.deepEqual(await wrappedHeaders(owner, table), []);
    const box = await owner
      .locator('main .table-wrap')
      .evaluate((w) => ({ scroll: w.scrollWidth, client: w.clientWidth }));
    assert.ok(box.scroll > box.client, 'the table scrolls inside its box');
    assert.match(await owner.locator(table).innerText(), /sale: \d \((€\d+\.\d\d|\$10\.00)/);
    await expectNoSidewaysScrollAt320(owner);

    // The statistics overview's table, the same way.
    assert.equal((await owner.goto(`${h.baseUrl}/stats/${link.id}`))?.status(), 200);
    const block = 'main .stats-conversions table.conversions-table';
    assert.deepEqual(await overlappingCells(owner, block), []);
    assert.deepEqual(await wrappedHeaders(owner, block), []);
    assert.equal(await owner.locator('[data-stat="conversions"]').innerText(), '3');
    assert.deepEqual(await owner.locator('[data-stat="conversion-value"] li').allInnerTexts(), ['€249.50', '$10.00']);
    await expectNoSidewaysScrollAt320(owner);
  });

  test('at 1280 px a long destination is cut short before the Clicks column, whole in its title', TIMEOUT, async () => {
    await owner.setViewportSize({ width: 1280, height: 800 });
    await owner.goto(`${h.baseUrl}/links/${link.id}/conversions`);
    const table = 'main table.conversions-table';
    assert.deepEqual(await overlappingCells(owner, table), []);
    const url = owner.locator(`${table} td.conversions-url > span`).first();
    const cut = await url.evaluate((s) => ({
      scroll: s.scrollWidth,
      client: s.clientWidth,
      title: s.getAttribute('title') ?? '',
    }));
    assert.ok(cut.scroll > cut.client, 'the destination is cut short');
    assert.ok(cut.title.startsWith(`${dest.base}${LONG}`), 'the whole destination is its title');
    const [urlBox, clicksBox] = await Promise.all([
      url.boundingBox(),
      owner.locator(`${table} tbody tr`).first().locator('td.num').first().boundingBox(),
    ]);
    assert.ok(
      urlBox && clicksBox && urlBox.x + urlBox.width <= clicksBox.x + 0.5,
      'the destination ends before Clicks',
    );
    const wrap = await owner.locator('main .table-wrap').evaluate((w) => w.scrollWidth - w.clientWidth);
    assert.equal(wrap, 0, 'no scrolling on a laptop screen');
    await themes(owner, { label: 'conversions' });
    await owner.goto(`${h.baseUrl}/stats/${link.id}`);
    await themes(owner, { label: 'statistics with conversions' });
  });
});
