/**
 * Every page of the web app as a person reviewing it sees it: a full-page PNG of each route of
 * test/support/app-routes.ts at 1280 and 375 px wide, in the light and the dark theme, written
 * to a folder (not committed). Starts its own server on a temporary SQLite database with the
 * same data as the browser tests; needs Chromium at /usr/bin/chromium.
 *
 *   npm run screenshots [-- DIR]      (default ./screenshots)
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeBrowser, newPage } from '../test/support/browser.ts';
import { startHarness } from '../test/support/harness.ts';
import { seedApp } from '../test/support/app-routes.ts';

const WIDTHS = [
  { label: '1280', viewport: { width: 1280, height: 800 } },
  { label: '375', viewport: { width: 375, height: 812 } },
] as const;
const THEMES = ['light', 'dark'] as const;

const dir = resolve(process.argv[2] ?? 'screenshots');
mkdirSync(dir, { recursive: true });

const h = await startHarness('sqlite', { env: { TRUST_PROXY: 'true' } });
const signedIn = await newPage();
const signedOut = await newPage();
try {
  const app = await seedApp(h, signedIn);
  let written = 0;
  for (const route of app.routes) {
    const page = route.signedOut ? signedOut : signedIn;
    for (const { label, viewport } of WIDTHS) {
      await page.setViewportSize(viewport);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        const res = await page.goto(h.baseUrl + route.path);
        if (res?.status() !== 200) console.warn(`${route.path}: ${res?.status()}`);
        await page.screenshot({
          path: `${dir}/${route.name}-${label}-${theme}.png`,
          fullPage: true,
          animations: 'disabled',
        });
        written++;
      }
    }
  }
  await app.dest.close();
  console.log(`${written} screenshots of ${app.routes.length} pages in ${dir}`);
} finally {
  await signedIn.close();
  await signedOut.close();
  await closeBrowser();
  await h.close();
}
