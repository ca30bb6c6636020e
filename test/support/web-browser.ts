/**
 * What the browser tests of the web app share: a destination server on 127.0.0.1, signing up
 * through the real form, an API key for an account made that way, and the 320 px check.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import type { Harness } from './harness.ts';
import { PASSWORD } from './web-client.ts';
import { TEST_ACTOR } from './audit-actor.ts';

export interface Destination {
  base: string;
  /** The paths it was asked for, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** A plain page for every path: where the short links of the tests lead. */
export async function startDestination(): Promise<Destination> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><title>Destination</title><main><h1>Arrived at ${req.url ?? ''}</h1></main></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { base, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const newEmail = (): string => `browser-${randomBytes(4).toString('hex')}@example.com`;

/** Signs up through /signup with the mouse and lands on the dashboard. */
export async function signUpInBrowser(page: Page, baseUrl: string, email = newEmail()): Promise<string> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Name').fill('Browser User');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  return email;
}

/** An API key of an account, made the way the account screen (or the CLI) makes one. */
export async function apiKeyOf(h: Harness, email: string): Promise<string> {
  return (await h.server.container.accounts.createKey(email, 'browser test', TEST_ACTOR)).apiKey;
}

/**
 * At 320 CSS pixels wide (WCAG 1.4.10's reflow width) the page itself does not scroll sideways;
 * a wide table may, inside its `.table-wrap`. Restores the viewport.
 */
export async function expectNoSidewaysScrollAt320(page: Page): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  try {
    const { overflow, widest } = await page.locator('html').evaluate((html) => {
      // What sticks out, deepest first: the message names it, so a failure can be acted on.
      const out = [...document.body.querySelectorAll('*')]
        .filter((e) => e.getBoundingClientRect().right > html.clientWidth + 0.5 && e.children.length === 0)
        .slice(0, 3)
        .map(
          (e) =>
            `<${e.tagName.toLowerCase()}${e.className ? ` class="${String(e.className)}"` : ''}> ${(e.textContent ?? '').trim().slice(0, 60)}`,
        );
      return { overflow: html.scrollWidth - html.clientWidth, widest: out };
    });
    assert.equal(
      overflow,
      0,
      `${page.url()} scrolls sideways by ${overflow} px at 320 px wide: ${widest.join('; ') || 'no element found past the edge'}`,
    );
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/** The contrast ratio of two opaque `rgb(…)` colours. */
export function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
    const c = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(bl);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
