/**
 * A real Chromium on the visitor pages: the pixel page must reach the destination quickly even
 * when every vendor script fails or hangs, our own inline code must pass our CSP, and the consent
 * and password forms must work when clicked and typed. Nothing leaves 127.0.0.1.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startHarness, type Harness } from '../support/harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Headless Chromium says "HeadlessChrome", which is (rightly) a bot: no pixels, no click.
const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

interface Hit {
  path: string;
  at: number;
}

describe('a real browser on the visitor pages', () => {
  let implied: Harness;
  let ask: Harness;
  let destination: HttpServer;
  let destBase: string;
  const hits: Hit[] = [];
  let profile: string;
  let context: BrowserContext;
  /** Vendor requests the route stopped, and how: aborted at once, or left hanging. */
  const outside: string[] = [];
  let vendorMode: 'abort' | 'hang' = 'abort';
  const hanging: { abort(): Promise<void> }[] = [];
  const cspProblems: string[] = [];

  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM}; install it with \`apt-get install -y chromium\` (.ci/run does this)`,
      );
    }
    implied = await startHarness('sqlite', { env: { PIXEL_CONSENT: 'implied' } });
    ask = await startHarness('sqlite', { env: { PIXEL_CONSENT: 'ask' } });
    destination = createServer((req, res) => {
      hits.push({ path: req.url ?? '', at: Date.now() });
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Destination</title><h1>Arrived</h1>');
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    const address = destination.address();
    destBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    profile = mkdtempSync(join(tmpdir(), 'linkpix-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      userAgent: USER_AGENT,
      timeout: 30_000,
    });
    // Every request of every page: 127.0.0.1 goes through, anything else never leaves.
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      outside.push(url.host);
      if (vendorMode === 'hang') hanging.push({ abort: () => route.abort('timedout').catch(() => {}) });
      else await route.abort('blockedbyclient');
    });
    await context.exposeBinding('__lpCspViolation', (_source, text: string) => void cspProblems.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __lpCspViolation(t: string): void }).__lpCspViolation(
          `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
        );
      });
    });
  });

  after(async () => {
    for (const h of hanging.splice(0)) await h.abort();
    await context?.close();
    await implied?.close();
    await ask?.close();
    await new Promise((resolve) => (destination ? destination.close(resolve) : resolve(undefined)));
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function newPage(): Promise<{ page: Page; console: string[] }> {
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
    return { page, console };
  }

  /** Our own scripts and styles ran under our CSP: no violation reported or logged. */
  function assertNoCspViolation(console: string[]): void {
    assert.deepEqual(cspProblems.splice(0), [], 'securitypolicyviolation events');
    const csp = console.filter((line) => /Content Security Policy|Refused to (execute|apply|load)/i.test(line));
    assert.deepEqual(csp, [], 'CSP messages on the console');
  }

  async function link(h: Harness, key: string, path: string, extra: Record<string, unknown> = {}) {
    const px = await h.request('POST', '/api/v1/pixels', {
      key,
      form: { name: `px-${path}`, type: 'facebook', value: '123456789' },
    });
    assert.equal(px.status, 201, px.text);
    const tw = await h.request('POST', '/api/v1/pixels', {
      key,
      form: { name: `tw-${path}`, type: 'google-tag-manager', value: 'GTM-ABC123' },
    });
    const made = await h.request('POST', '/api/v1/links', {
      key,
      form: { url: `${destBase}/${path}`, pixels: [px.body.data.id, tw.body.data.id], ...extra },
    });
    assert.equal(made.status, 201, made.text);
    return made.body.data as { id: number; alias: string };
  }

  async function clicks(h: Harness, key: string, id: number): Promise<number> {
    await h.server.container.visits.sink.flush();
    return (await h.request('GET', `/api/v1/links/${id}`, { key })).body.data.clicks;
  }

  /** Visits the pixel page and times its arrival at the destination from the page's response. */
  async function timedVisit(page: Page, url: string, path: string): Promise<number> {
    let pageAt = 0;
    page.on('response', (r) => {
      if (r.url() === url) pageAt = Date.now();
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForURL(`${destBase}/${path}`);
    const hit = hits.find((h) => h.path === `/${path}`);
    assert.ok(hit, `the destination never saw /${path}`);
    assert.ok(pageAt > 0, 'the pixel page response was not seen');
    return hit.at - pageAt;
  }

  test('implied consent: failing vendor scripts do not hold the visitor; no CSP violation', async (t) => {
    const { key } = await implied.account();
    const l = await link(implied, key, 'implied-abort');
    const { page, console } = await newPage();
    vendorMode = 'abort';
    const took = await timedVisit(page, `${implied.baseUrl}/${l.alias}`, 'implied-abort');
    t.diagnostic(`destination reached ${took} ms after the pixel page`);
    assert.ok(took < 1500, `reached the destination ${took} ms after the pixel page`);
    assert.equal(await page.title(), 'Destination');
    assert.ok(
      outside.includes('connect.facebook.net'),
      `the facebook loader was never requested: ${outside.join(', ')}`,
    );
    assert.ok(
      outside.includes('www.googletagmanager.com'),
      `the GTM loader was never requested: ${outside.join(', ')}`,
    );
    assertNoCspViolation(console);
    assert.equal(await clicks(implied, key, l.id), 1);
    await page.close();
  });

  test('implied consent: vendor scripts that never answer still give way within the bound', async (t) => {
    const { key } = await implied.account();
    const l = await link(implied, key, 'implied-hang');
    const { page, console } = await newPage();
    vendorMode = 'hang';
    outside.length = 0;
    try {
      const took = await timedVisit(page, `${implied.baseUrl}/${l.alias}`, 'implied-hang');
      t.diagnostic(`destination reached ${took} ms after the pixel page`);
      assert.ok(took < 1500, `reached the destination ${took} ms after the pixel page`);
      assert.ok(outside.length > 0, 'no vendor request was made');
    } finally {
      vendorMode = 'abort';
      for (const h of hanging.splice(0)) await h.abort();
    }
    assertNoCspViolation(console);
    await page.close();
  });

  test('ask: clicking "Accept" remembers the answer, fires the pixels and reaches the destination', async () => {
    const { key } = await ask.account();
    const l = await link(ask, key, 'consent-yes');
    await context.clearCookies();
    const { page, console } = await newPage();
    outside.length = 0;
    await page.goto(`${ask.baseUrl}/${l.alias}`);
    assert.equal(await page.title(), 'Allow tracking?');
    assert.equal(outside.length, 0, `a vendor was contacted before consent: ${outside.join(', ')}`);
    assert.equal(await clicks(ask, key, l.id), 0);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`${destBase}/consent-yes`);
    assert.ok(outside.includes('connect.facebook.net'), 'no pixel after Accept');
    const consent = (await context.cookies(ask.baseUrl)).find((c) => c.name === 'lp_consent');
    assert.equal(consent?.value, 'yes');
    assert.equal(consent?.httpOnly, true);
    assert.ok(consent.expires * 1000 > Date.now() + 29 * 86_400_000, 'the answer is kept for 30 days');

    // Remembered: the next visit goes straight through the pixel page.
    hits.length = 0;
    const took = await timedVisit(page, `${ask.baseUrl}/${l.alias}`, 'consent-yes');
    assert.ok(took < 1500, `${took} ms`);
    assertNoCspViolation(console);
    assert.equal(await clicks(ask, key, l.id), 2);
    await context.clearCookies();
    await page.close();
  });

  test('ask: "Decline" goes on without any vendor request', async () => {
    const { key } = await ask.account();
    const l = await link(ask, key, 'consent-no');
    await context.clearCookies();
    const { page, console } = await newPage();
    outside.length = 0;
    await page.goto(`${ask.baseUrl}/${l.alias}`);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${destBase}/consent-no`);
    assert.equal(outside.length, 0, `a vendor was contacted after Decline: ${outside.join(', ')}`);
    assertNoCspViolation(console);
    await context.clearCookies();
    await page.close();
  });

  test('the password form: a wrong answer shows the error, the right one goes on and is remembered', async () => {
    const { key } = await implied.account();
    const made = await implied.request('POST', '/api/v1/links', {
      key,
      form: { url: `${destBase}/locked`, password: 'correct horse' },
    });
    assert.equal(made.status, 201, made.text);
    const l = made.body.data as { id: number; alias: string };
    const { page, console } = await newPage();
    await page.goto(`${implied.baseUrl}/${l.alias}`);
    assert.equal(await page.title(), 'Password required');
    await page.locator('#password').fill('wrong horse');
    const wrong = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.equal((await wrong).status(), 403);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /Wrong password/);

    await page.locator('#password').fill('correct horse');
    await page.locator('#password').press('Enter');
    await page.waitForURL(`${destBase}/locked`);
    const unlock = (await context.cookies(implied.baseUrl)).find((c) => c.name === `lp_unlock_${l.id}`);
    assert.ok(unlock, 'no unlock cookie');
    assert.equal(unlock.httpOnly, true);

    hits.length = 0;
    await page.goto(`${implied.baseUrl}/${l.alias}`);
    await page.waitForURL(`${destBase}/locked`);
    assert.equal(hits.length, 1);
    assertNoCspViolation(console);
    assert.equal(await clicks(implied, key, l.id), 2);
    await page.close();
  });
});
