/**
 * The frame of a browser suite of the web app, run once per engine: a `describe` per engine in
 * ENGINES (PostgreSQL skipped, and said so, without TEST_DATABASE_URL), each with a server of its
 * own, a destination for its links and, unless told otherwise, a page signed up through the form.
 * The Chromium is the file's (test/support/browser.ts).
 *
 * The themes and axe (`everyTheme`) run on SQLite's pass only: they check the templates, which no
 * engine changes; every other step, and so every row an engine writes or reads, runs on both.
 * So do the tests declared with `once`: pages that read nothing an engine stores (/docs, the
 * signed-out landing page).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ENGINES, startHarness, type Engine, type Harness, type HarnessOptions } from './harness.ts';
import { blockedRequests, newPage, themeCheckOn, type ThemeCheckOptions } from './browser.ts';
import { expectNoSidewaysScrollAt320, signUpInBrowser, startDestination, type Destination } from './web-browser.ts';

export interface WebAppSuite {
  h: Harness;
  dest: Destination;
  /** Signed in as `email`, the first account of this server and so its operator. */
  page: Page;
  email: string;
  /** Opens `path` on the signed-in page, expects `status` and the first heading. */
  open: (path: string, status: number, heading: string | RegExp) => Promise<void>;
  assertHeading: (heading: string | RegExp) => Promise<void>;
  /** checkEveryTheme on the signed-in page (SQLite's pass), then 320 px wide, and nothing asked beyond loopback. */
  everyTheme: (label?: string) => Promise<void>;
  /** checkEveryTheme on `page`, on SQLite's pass only (the same templates on either engine). */
  themes: (page: Page, options?: ThemeCheckOptions) => Promise<void>;
  /** A test of a page that reads nothing an engine stores: declared on SQLite's pass only. */
  once: (name: string, options: { timeout: number }, fn: () => Promise<void>) => void;
}

export interface WebAppSuiteOptions extends HarnessOptions {
  /** Sign up a page before the tests (default true); without, `page` and `email` throw. */
  signedIn?: boolean;
}

/**
 * Runs `suite` once per engine. It gets the suite's parts through `web`, whose fields exist once
 * the engine's `before` has run (reading one earlier throws): use them inside tests.
 */
export function onEachEngineInBrowser(
  title: string,
  options: WebAppSuiteOptions,
  suite: (web: WebAppSuite) => void,
): void {
  const { signedIn = true, ...harness } = options;
  for (const engine of ENGINES) {
    describe(`${title} [${engine.name}]`, { skip: engine.skip ?? false }, () => {
      let parts: { h: Harness; dest: Destination; page?: Page; email?: string } | undefined;
      before(async () => {
        const h = await startHarness(engine.name, harness);
        parts = { h, dest: await startDestination() };
        if (signedIn) {
          parts.page = await newPage();
          parts.email = await signUpInBrowser(parts.page, h.baseUrl);
        }
      });
      after(async () => {
        await parts?.page?.close();
        await parts?.h.close();
        await parts?.dest.close();
      });
      suite(webAppSuite(engine.name, () => parts));
    });
  }
}

function webAppSuite(
  engine: Engine['name'],
  parts: () => { h: Harness; dest: Destination; page?: Page; email?: string } | undefined,
): WebAppSuite {
  const started = () => {
    const p = parts();
    if (!p) throw new Error('the suite has not started: use its parts inside a test');
    return p;
  };
  const signedIn = () => {
    const { page, email } = started();
    if (!page || email === undefined) throw new Error('this suite has no signed-in page (signedIn: false)');
    return { page, email };
  };
  const web: WebAppSuite = {
    get h() {
      return started().h;
    },
    get dest() {
      return started().dest;
    },
    get page() {
      return signedIn().page;
    },
    get email() {
      return signedIn().email;
    },
    open: async (path, status, heading) => {
      const res = await web.page.goto(web.h.baseUrl + path);
      assert.equal(res?.status(), status, path);
      await web.assertHeading(heading);
    },
    assertHeading: async (heading) => {
      const text = await web.page.getByRole('heading', { level: 1 }).innerText();
      if (typeof heading === 'string') assert.equal(text, heading);
      else assert.match(text, heading);
    },
    themes: themeCheckOn(engine),
    once: (name, options, fn) => {
      if (engine === 'sqlite') test(name, options, fn);
    },
    everyTheme: async (label) => {
      await web.themes(web.page, label ? { label } : {});
      await expectNoSidewaysScrollAt320(web.page);
      assert.deepEqual(blockedRequests(web.page), []);
    },
  };
  return web;
}
