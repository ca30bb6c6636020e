/**
 * The checks of an open menu (a `<details data-menu>` of ui/menu.ts, or a bar that appears, such
 * as the links list's bulk bar) on a phone, in the light and the dark theme: axe at WCAG 2.2 AA
 * on the open menu alone (it floats over the rows under it, which axe would count as covered),
 * and the keyboard: Enter opens it, Tab walks its items in order, Escape closes it and gives
 * focus back to its button.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { axeRulesIn, expectNoAxeViolations } from './browser.ts';

const THEMES = ['light', 'dark'] as const;

/** Axe on `selector` alone, in both themes (in dark, its colour rules); every fault at once. */
export async function expectAxeCleanInBothThemes(page: Page, selector: string, label: string): Promise<void> {
  const faults: string[] = [];
  try {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await expectNoAxeViolations(page, { include: selector, ...axeRulesIn(theme), label: `${label}, ${theme}` }).catch(
        (error: Error) => faults.push(error.message),
      );
    }
  } finally {
    await page.emulateMedia({ colorScheme: null });
  }
  assert.deepEqual(faults, []);
}

/** What has focus, as a short description (tag, name), for the failure messages. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return '';
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${el.tagName.toLowerCase()} "${name}"`;
  });

/**
 * The stops of Tab in `within`: its visible controls in document order (no tabindex in the app),
 * a group of radio buttons once, at its checked one (arrows move within it).
 */
async function focusables(within: Locator): Promise<string[]> {
  return within.evaluate((root) =>
    [...root.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (
          r.width === 0 ||
          r.height === 0 ||
          getComputedStyle(el).visibility === 'hidden' ||
          (el as HTMLButtonElement).disabled
        )
          return false;
        if (!(el instanceof HTMLInputElement) || el.type !== 'radio') return true;
        const group = [...root.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`)];
        return el === (group.find((r) => r.checked) ?? group[0]);
      })
      .map((el) => {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        return `${el.tagName.toLowerCase()} "${name}"`;
      }),
  );
}

/** Tab from where focus is now reaches each of `items` in turn. */
export async function expectTabOrder(page: Page, items: readonly string[], label: string): Promise<void> {
  assert.ok(items.length > 0, `${label}: something to reach`);
  for (const item of items) {
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), item, `${label}: Tab's order`);
  }
}

/**
 * A `<details data-menu>` by keyboard and under axe: its button focused and Enter opens it, axe
 * on the open menu in both themes, Tab walks its items in order, Escape closes it and focus is
 * back on its button.
 */
export async function expectOpenMenuReady(page: Page, menu: Locator, selector: string, label: string): Promise<void> {
  const summary = menu.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((sel) => document.querySelector(sel)?.hasAttribute('open') === true, selector);
  await expectAxeCleanInBothThemes(page, `${selector}[open]`, `${label} open`);
  await expectTabOrder(page, await focusables(menu.locator('.menu-panel')), label);
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('open'), null, `${label}: Escape closes it`);
  assert.equal(
    await summary.evaluate((el) => el === document.activeElement),
    true,
    `${label}: focus is back on its button`,
  );
}

/** A bar that appears (the bulk bar): axe on it in both themes, and Tab walks its controls in order. */
export async function expectBarReady(page: Page, bar: Locator, selector: string, label: string): Promise<void> {
  await expectAxeCleanInBothThemes(page, selector, label);
  const items = await focusables(bar);
  await bar.locator('a[href], button, input:not([type=hidden]), select, textarea').first().focus();
  // Focus is on the first: Tab walks the rest.
  await expectTabOrder(page, items.slice(1), label);
}
