/**
 * A real Chromium for the tests of pages: one browser per test process, launched at the first
 * `newPage`, its pages closed by each file's `after(closeBrowser)`; a fresh context per page; axe-core against
 * WCAG 2.2 AA; the light and dark themes and a phone-width screen; keyboard-only journeys.
 * Nothing leaves the loopback interface (see `newPage`).
 */
import { existsSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** A phone (390 × 844, the iPhone 12 to 15) and a laptop screen, in CSS pixels. */
export const VIEWPORTS = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

export type Viewport = keyof typeof VIEWPORTS | { width: number; height: number };

export interface NewPageOptions {
  colorScheme?: 'light' | 'dark';
  /** 'mobile' also emulates a touch phone (meta viewport honoured, touch events). Default 'desktop'. */
  viewport?: Viewport;
  javaScriptEnabled?: boolean;
  /** Another client's User-Agent (a link unfurler's, say) instead of Chromium's own. */
  userAgent?: string;
}

export interface AxeException {
  ruleId: string;
  /** Why the rule does not apply or cannot be met here; printed with any failure of the page. */
  reason: string;
}

export interface AxeOptions {
  exceptions?: readonly AxeException[];
  /** Prefixed to the failure message, e.g. "dark, 390 px". */
  label?: string;
  /**
   * A CSS selector: only what it matches is checked. For an open menu, which floats over the
   * rows under it (axe would count their targets as covered by it, as they are).
   */
  include?: string;
  /** Only AXE_COLOUR_RULES: for a screen already checked whole in the other theme (`axeRulesIn`). */
  colourOnly?: boolean;
  /** Only AXE_LAYOUT_RULES: for a screen already checked whole at another width (THEMES). */
  layoutOnly?: boolean;
}

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/**
 * axe's rules about colour within AXE_TAGS: axe-core's `cat.color` rules but the AAA one
 * (`color-contrast-enhanced`). A rule axe adds to `cat.color` at AA belongs here.
 */
const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * The rules within AXE_TAGS whose outcome the window's width can change on the same markup: the
 * colour rules (text wraps over other backgrounds), target sizes and spacing (WCAG 2.5.8), and a
 * region that scrolls only when narrow. What else axe checks reads the markup, the same at every
 * width. What one width alone shows is the same on every screen (the header's Menu and the links
 * list's cards on a phone, the header's links on a desktop), and axe reads it whole at both:
 * every route at 375 px (test/e2e/every-route-browser.test.ts), every screen of checkEveryTheme
 * at 1280 px.
 */
const AXE_LAYOUT_RULES = [...AXE_COLOUR_RULES, 'target-size', 'scrollable-region-focusable'] as const;

/**
 * The axe rules a screen needs in a theme: every rule in light, the colour rules alone in dark.
 * The dark theme changes only colours (app.css's light-dark() roles and color-scheme), so what
 * else axe checks reads the same markup and layout in both (docs/design/tests.md).
 */
export function axeRulesIn(colorScheme: 'light' | 'dark'): Pick<AxeOptions, 'colourOnly'> {
  return { colourOnly: colorScheme === 'dark' };
}

// Chromium's own resolver answers no name but localhost: no DNS query, whatever a page asks for.
// Playwright already passes --no-sandbox (chromiumSandbox defaults to false, which running as
// root requires), --headless, --disable-background-networking and --disable-component-update.
const ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'];

/**
 * How long a page's wait (a navigation, a selector, a response) may take before it fails, for
 * every page of newPage: Playwright's default is tight on a machine that runs two browser suites
 * beside everything else, and a wait that is slow there is not broken. Below the browser tests'
 * own timeout, so that a wait that never ends fails naming what it waited for.
 */
const WAIT_MS = 45_000;

let launched: Promise<Browser> | undefined;

/**
 * What the test runner's process (scripts/run-tests.mjs) closes once its last file has ended:
 * there, one Chromium serves every file of the process, since a page's context is its own
 * (cookies, storage) and a launch costs more than a small suite's pages. Absent when a file runs
 * on its own (`node --test`): then each file's closeBrowser closes the browser.
 */
const AT_PROCESS_END = Symbol.for('linkpix.tests.atProcessEnd');
const atProcessEnd = (): (() => Promise<void>)[] | undefined =>
  (globalThis as { [AT_PROCESS_END]?: (() => Promise<void>)[] })[AT_PROCESS_END];

/** The process's Chromium, launched on first use (and again if it went away). */
export function browser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`);
  if (launched === undefined) {
    const starting = chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
    launched = starting;
    starting.then(
      (b) =>
        b.once('disconnected', () => {
          if (launched === starting) launched = undefined;
        }),
      () => {
        if (launched === starting) launched = undefined;
      },
    );
    atProcessEnd()?.push(() => starting.then((b) => b.close()).catch(() => {}));
  }
  return launched;
}

/**
 * Ends a file's use of Chromium: each file that opens pages calls `after(closeBrowser)` at its
 * top level. Its pages still open are closed; so is the browser, unless the runner's process
 * keeps it for the next file (AT_PROCESS_END). Not a hook registered by this module: files share
 * a process (docs/design/tests.md), and a module is evaluated once, for the first file that imports it.
 */
export async function closeBrowser(): Promise<void> {
  const b = launched;
  if (!b) return;
  if (atProcessEnd()) {
    await Promise.all((await b).contexts().map((context) => context.close()));
    return;
  }
  launched = undefined;
  await (await b).close();
}

const blocked = new WeakMap<Page, string[]>();
const withoutScript = new WeakSet<Page>();

/**
 * A page in a context of its own (cookies included), closed with the page. Requests to any host
 * but 127.0.0.1 and localhost are aborted and recorded (`blockedRequests`). The User-Agent is
 * Chromium's without "Headless", which linkpix rightly takes for a bot.
 */
export async function newPage(options: NewPageOptions = {}): Promise<Page> {
  const b = await browser();
  const viewport = typeof options.viewport === 'object' ? options.viewport : VIEWPORTS[options.viewport ?? 'desktop'];
  const phone = options.viewport === 'mobile';
  const major = b.version().split('.')[0] ?? '120';
  const context = await b.newContext({
    viewport,
    colorScheme: options.colorScheme ?? 'light',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    isMobile: phone,
    hasTouch: phone,
    userAgent:
      options.userAgent ??
      (phone
        ? `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
        : `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`),
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const outside: string[] = [];
  blocked.set(page, outside);
  if (options.javaScriptEnabled === false) withoutScript.add(page);
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.once('close', () => void context.close().catch(() => {}));
  return page;
}

/** The URLs the page tried to reach beyond the loopback interface (all of them were aborted). */
export function blockedRequests(page: Page): readonly string[] {
  return blocked.get(page) ?? [];
}

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;

/**
 * What AxeBuilder evaluates in each frame, instead of axe-core's source, when every frame of the
 * document already has axe from an earlier run: AxeBuilder sends and compiles the whole source
 * twice per run, most of what a colour-only run costs. The same axe-core runs with the same
 * options either way; a navigation brings a fresh document, which gets the source again.
 */
const AXE_ALREADY_LOADED = 'undefined';

/** Whether every frame of the page's documents has axe-core from an earlier run. */
async function axeLoaded(page: Page): Promise<boolean> {
  const loaded = await Promise.all(
    page
      .frames()
      .map((frame) =>
        frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function').catch(() => false),
      ),
  );
  return loaded.every(Boolean);
}

/**
 * Runs axe on the page as it stands; fails listing every violation unless excepted by rule id.
 * Legacy mode (axe.run in the page) rather than runPartial + finishRun, which opens a blank page
 * per run and takes 1–2 s instead of 0.5 s; all it loses is cross-origin frames, which no page
 * of ours has. axe runs in the page's own JavaScript: on a page opened with JavaScript off it
 * would wait forever, so that is refused.
 */
export async function expectNoAxeViolations(page: Page, options: AxeOptions = {}): Promise<AxeResults> {
  if (withoutScript.has(page)) {
    throw new Error(
      'axe cannot run with JavaScript off; check the page with it on (same DOM unless it has <noscript> content)',
    );
  }
  const exceptions = options.exceptions ?? [];
  let builder = new AxeBuilder({
    page,
    ...((await axeLoaded(page)) ? { axeSource: AXE_ALREADY_LOADED } : {}),
  })
    // Every violating element in full; of what passed or could not be told, one element a
    // rule: naming every element (a CSS selector each) is much of a run's time.
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  if (options.colourOnly) builder = builder.withRules([...AXE_COLOUR_RULES]);
  else if (options.layoutOnly) builder = builder.withRules([...AXE_LAYOUT_RULES]);
  else builder = builder.withTags([...AXE_TAGS]);
  if (options.include !== undefined) builder = builder.include(options.include);
  if (exceptions.length > 0) builder = builder.disableRules(exceptions.map((e) => e.ruleId));
  const results = await builder.analyze();
  if (results.violations.length > 0) {
    const lines = results.violations.map((v) => {
      // Each element with what axe measured (e.g. the contrast ratio it found and the one needed).
      const targets = v.nodes.map((n) => {
        const why = [...n.any.slice(0, 1), ...n.all, ...n.none].map((c) => c.message).join('; ');
        return `      ${n.target.join(' ')}${why ? `: ${why}` : ''}`;
      });
      return `  - ${v.id} (${v.impact ?? 'no impact'}): ${v.help}\n    ${v.helpUrl}\n${targets.join('\n')}`;
    });
    const where = options.label ? `${page.url()} [${options.label}]` : page.url();
    const excepted = exceptions.map((e) => `\n  (not checked: ${e.ruleId}, ${e.reason})`).join('');
    throw new Error(`axe found ${results.violations.length} violation(s) on ${where}:\n${lines.join('\n')}${excepted}`);
  }
  return results;
}

export interface Theme {
  label: string;
  colorScheme: 'light' | 'dark';
  viewport: { width: number; height: number };
  /** The axe rules checked in it: every rule once a screen, in the others what they change. */
  axe: Pick<AxeOptions, 'colourOnly' | 'layoutOnly'>;
}

/**
 * Light and dark on a desktop screen, and light at 390 px wide: axe whole in the first, its
 * colour rules in dark (`axeRulesIn`), its layout rules at 390 px (AXE_LAYOUT_RULES).
 */
export const THEMES: readonly Theme[] = [
  { label: 'light', colorScheme: 'light', viewport: VIEWPORTS.desktop, axe: axeRulesIn('light') },
  { label: 'dark', colorScheme: 'dark', viewport: VIEWPORTS.desktop, axe: axeRulesIn('dark') },
  { label: 'light, 390 px', colorScheme: 'light', viewport: VIEWPORTS.mobile, axe: { layoutOnly: true } },
];

/**
 * Checks the page as it stands (after a POST, say) in every theme, switching the color scheme
 * and the window width in place without reloading, then restores them. In each: no axe
 * violation (of the rules THEMES names), no horizontal scrolling (WCAG 1.4.10), form fields that
 * stand out from the page (WCAG 1.4.11, which axe does not check), and `check` if given.
 */
export async function checkEveryTheme(
  page: Page,
  options: AxeOptions & { check?: (page: Page, theme: Theme) => Promise<void> } = {},
): Promise<void> {
  const viewport = page.viewportSize();
  // A page reached by a click may show its heading before its stylesheet is in: axe would judge it unstyled.
  await page.waitForLoadState('load');
  try {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme.colorScheme });
      await page.setViewportSize(theme.viewport);
      const label = options.label ? `${options.label}, ${theme.label}` : theme.label;
      await expectNoAxeViolations(page, { ...options, ...theme.axe, label });
      // locator.evaluate works with JavaScript off (page.evaluate, which axe uses, does not).
      const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
      if (overflow > 0) throw new Error(`${page.url()} [${label}] scrolls sideways by ${overflow} px`);
      const faint = await faintFieldBoundaries(page);
      if (faint.length > 0)
        throw new Error(
          `${page.url()} [${label}] form fields hard to make out (WCAG 1.4.11, 3:1 needed):\n${faint.join('\n')}`,
        );
      await options.check?.(page, theme);
    }
  } finally {
    await page.emulateMedia({ colorScheme: null });
    if (viewport) await page.setViewportSize(viewport);
  }
}

export type ThemeCheckOptions = Parameters<typeof checkEveryTheme>[1];

/**
 * checkEveryTheme for a suite run once per engine: on SQLite's pass only. The themes and axe
 * check the templates, which no engine changes; the suite's other steps run on both.
 */
export function themeCheckOn(engine: string): (page: Page, options?: ThemeCheckOptions) => Promise<void> {
  return async (page, options) => {
    if (engine === 'sqlite') await checkEveryTheme(page, options);
  };
}

type Rgba = [number, number, number, number];

function rgba(css: string): Rgba {
  const n = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 1];
}

function over(top: Rgba, under: Rgba): Rgba {
  const mix = (i: 0 | 1 | 2) => top[3] * top[i] + (1 - top[3]) * under[i];
  return [mix(0), mix(1), mix(2), 1];
}

function contrast(a: Rgba, b: Rgba): number {
  const channel = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = (c: Rgba) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Form fields whose outline (border, or own fill) contrasts less than 3:1 with what is behind
 * them: axe does not check non-text contrast (WCAG 1.4.11), and a faint border on a plain page is
 * the usual way to miss it. One line per field. The page only reports computed colors: functions
 * defined here cannot run there (tsx wraps named functions in a `__name` helper the page lacks).
 */
async function faintFieldBoundaries(page: Page): Promise<string[]> {
  const fields = await page.locator('input:not([type=hidden]), select, textarea').evaluateAll((els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      const behind: string[] = [];
      for (let e = el.parentElement; e; e = e.parentElement) behind.push(getComputedStyle(e).backgroundColor);
      return {
        name: el.tagName.toLowerCase() + (el.id ? `#${el.id}` : ''),
        // Not drawn: hidden itself or by an ancestor, a closed <details>' content included.
        shown: el.checkVisibility({ visibilityProperty: true }),
        // Chromium draws a checkbox or radio of its own (ignoring the CSS border, which it reports as 0).
        native:
          el instanceof HTMLInputElement &&
          (el.type === 'checkbox' || el.type === 'radio') &&
          style.appearance !== 'none',
        // What the browser's drawing of such a control depends on: equal looks, one measurement.
        looks: [
          el instanceof HTMLInputElement ? `${el.type}:${el.checked}` : '',
          style.colorScheme,
          style.accentColor,
          style.opacity,
          style.filter,
          Math.round(el.getBoundingClientRect().width),
          Math.round(el.getBoundingClientRect().height),
          window.devicePixelRatio,
        ].join('|'),
        fill: style.backgroundColor,
        border: parseFloat(style.borderTopWidth) > 0 ? style.borderTopColor : null,
        behind,
      };
    }),
  );
  const faint: string[] = [];
  for (const [i, f] of fields.entries()) {
    if (!f.shown) continue;
    const backdrop = f.behind.reduceRight<Rgba>((under, top) => over(rgba(top), under), [255, 255, 255, 1]);
    const fill = over(rgba(f.fill), backdrop);
    const edge = f.border === null ? fill : over(rgba(f.border), fill);
    const best = Math.max(contrast(edge, backdrop), contrast(fill, backdrop));
    if (best >= 3) continue;
    if (f.native) {
      const looks = `${f.looks}|${backdrop.join(',')}`;
      const drawn =
        drawnBefore.get(looks) ??
        (await drawnOutline(page.locator('input:not([type=hidden]), select, textarea').nth(i), backdrop));
      drawnBefore.set(looks, drawn);
      if (drawn.enough) continue;
      faint.push(
        `  ${f.name}: drawn by the browser, ${drawn.strong} of ${drawn.total} pixels at 3:1 or more (${DRAWN_NEEDED} needed)`,
      );
    } else {
      faint.push(`  ${f.name}: ${best.toFixed(2)}:1 (border ${f.border ?? 'none'}, fill ${f.fill})`);
    }
  }
  return faint;
}

/**
 * What the file's Chromium drew for a control of given looks on a given backdrop, kept across
 * pages and suites: the same screen is checked on each engine and in each theme, and reading
 * the pixels (a screenshot) is the slowest part of the check.
 */
const drawnBefore = new Map<string, Awaited<ReturnType<typeof drawnOutline>>>();

/** Pixels at 3:1 that show the browser drew an outline of such a colour (antialiasing aside). */
const DRAWN_NEEDED = 4;

/**
 * A checkbox or radio the browser draws itself: its CSS colors say nothing of what is shown, so
 * its pixels are read (the screenshot decoded by the page's own engine: locator.evaluate works
 * with JavaScript off, and a Blob is not subject to the page's CSP). Chromium outlines them in
 * #767676 on white (4.5:1), lighter on a dark page; a radio's ring is antialiased, so its pixels
 * at full strength are few (4 to 16 from 15 to 19 px wide), but a faint control has none at all.
 */
async function drawnOutline(
  field: Locator,
  backdrop: Rgba,
): Promise<{ enough: boolean; strong: number; total: number }> {
  const png = await field.screenshot({ animations: 'disabled' });
  const { data, width, height } = await field
    .page()
    .locator('html')
    .evaluate(async (_, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.drawImage(bitmap, 0, 0);
      return {
        data: Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data),
        width: bitmap.width,
        height: bitmap.height,
      };
    }, png.toString('base64'));
  let strong = 0;
  for (let p = 0; p < data.length; p += 4) {
    if (contrast([data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0, 1], backdrop) >= 3) strong++;
  }
  return { enough: strong >= DRAWN_NEEDED, strong, total: width * height };
}

/** What has keyboard focus, as its ARIA snapshot line: `textbox "Password"`, `button "Continue"`. */
async function focused(page: Page): Promise<{ role: string; name: string } | null> {
  const el = page.locator(':focus');
  if ((await el.count()) === 0) return null;
  const first = (await el.ariaSnapshot()).split('\n')[0] ?? '';
  const m = /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(first);
  if (!m) return { role: '?', name: first };
  return { role: m[1] ?? '?', name: m[2] === undefined ? '' : (JSON.parse(`"${m[2]}"`) as string) };
}

/**
 * Presses Tab until the focused element's accessible name is `name` (exact, or matching a
 * RegExp), at most `max` times; no press if it already has focus (autofocus). Returns a live
 * `:focus` locator (it follows focus). Fails listing where focus went. Works with JavaScript off.
 */
export async function tabTo(page: Page, name: string | RegExp, { max = 20 }: { max?: number } = {}): Promise<Locator> {
  const path: string[] = [];
  for (let i = 0; i <= max; i++) {
    if (i > 0) await page.keyboard.press('Tab');
    const now = await focused(page);
    path.push(now ? `${now.role} "${now.name}"` : '(nothing)');
    if (now && (typeof name === 'string' ? now.name === name : name.test(now.name))) return page.locator(':focus');
  }
  throw new Error(
    `Tab never reached "${String(name)}" on ${page.url()} in ${max} presses; focus went: ${path.join(' → ')}`,
  );
}
