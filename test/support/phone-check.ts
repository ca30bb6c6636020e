/**
 * The checks every page of the app must pass on a phone (issue 31's quality bar), in one call:
 * no sideways scroll, no text under 12 px, every target at least 24 × 24 px or spaced as WCAG
 * 2.2's 2.5.8 allows, no axe violation at WCAG 2.2 AA, and no console error since the page was
 * watched. The page's own code only reports what it measures; the rules are applied here (a
 * function defined here cannot run there: tsx wraps named functions in a helper the page lacks).
 */
import type { Page } from 'playwright-core';
import { axeRulesIn, expectNoAxeViolations } from './browser.ts';

export const PHONE = { width: 375, height: 812 } as const;
const MIN_FONT_PX = 12;
const MIN_TARGET_PX = 24;

const consoleErrors = new WeakMap<Page, string[]>();

/** Starts collecting the page's console errors and uncaught exceptions (call before its first goto). */
export function watchConsole(page: Page): void {
  const errors: string[] = [];
  consoleErrors.set(page, errors);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
}

interface Box {
  what: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** A link inside a line of text (WCAG 2.5.8's inline exception). */
  inline: boolean;
}

/** Small text: visible elements with text of their own whose computed size is under the minimum. */
async function smallText(page: Page): Promise<string[]> {
  const found = await page.locator('body').evaluate((body, min) => {
    const out: string[] = [];
    for (const el of body.querySelectorAll('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!own) continue;
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Visually hidden text (1 px, clipped) is read, not seen.
      if (rect.width <= 1 || rect.height <= 1 || style.visibility === 'hidden') continue;
      const size = parseFloat(style.fontSize);
      if (size < min)
        out.push(
          `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}": ${size} px`,
        );
    }
    return out;
  }, MIN_FONT_PX);
  return found;
}

async function targets(page: Page): Promise<Box[]> {
  return page.locator('body').evaluate((body) => {
    const out: Box[] = [];
    for (const el of body.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]',
    )) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      // Visually hidden controls (the skip link until focused) are not targets one can see.
      if (r.width <= 1 && r.height <= 1) continue;
      // A closed menu's panel is not shown (Chromium still gives its content boxes): only its summary is a target.
      const closed = el.closest('details:not([open])');
      if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) continue;
      const parentText = (el.parentElement?.textContent ?? '').trim().length;
      const ownText = (el.textContent ?? '').trim().length;
      const inline = el.tagName === 'A' && style.display === 'inline' && parentText > ownText;
      const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
      out.push({
        what: `${el.tagName.toLowerCase()} "${label}"`,
        x: r.x + scrollX,
        y: r.y + scrollY,
        w: r.width,
        h: r.height,
        inline,
      });
    }
    return out;
  });
}

/** Whether a circle (centre, radius) meets a rectangle. */
function circleMeets(cx: number, cy: number, radius: number, b: Box): boolean {
  const nx = Math.max(b.x, Math.min(cx, b.x + b.w));
  const ny = Math.max(b.y, Math.min(cy, b.y + b.h));
  return (cx - nx) ** 2 + (cy - ny) ** 2 < radius ** 2;
}

/**
 * Targets under 24 × 24 px that are not excepted: a link in a sentence, or one whose 24 px circle
 * (centred on it) meets no other target and no other small target's circle (WCAG 2.2, 2.5.8).
 */
export function undersizedTargets(boxes: readonly Box[]): string[] {
  const eps = 0.5;
  const small = boxes.filter((b) => !b.inline && (b.w < MIN_TARGET_PX - eps || b.h < MIN_TARGET_PX - eps));
  const r = MIN_TARGET_PX / 2;
  const centre = (b: Box) => [b.x + b.w / 2, b.y + b.h / 2] as const;
  const bad: string[] = [];
  for (const s of small) {
    const [cx, cy] = centre(s);
    const crowded = boxes.some((o) => {
      if (o === s) return false;
      // A control inside another (a checkbox in its label) is the same target.
      if (o.x <= s.x && o.y <= s.y && o.x + o.w >= s.x + s.w && o.y + o.h >= s.y + s.h) return false;
      if (circleMeets(cx, cy, r, o)) return true;
      if (!small.includes(o)) return false;
      const [ox, oy] = centre(o);
      return (cx - ox) ** 2 + (cy - oy) ** 2 < (2 * r) ** 2;
    });
    if (crowded) bad.push(`${s.what}: ${s.w.toFixed(1)} × ${s.h.toFixed(1)} px`);
  }
  return bad;
}

/**
 * Sets the page to a phone's width, then checks it as it stands. `label` names the page in the
 * failure, which lists every fault found, not just the first. `theme` is the one the page shows:
 * in dark, axe checks its colour rules alone (`axeRulesIn`).
 */
export async function expectPhoneReady(
  page: Page,
  label: string,
  { axe = true, theme = 'light' }: { axe?: boolean; theme?: 'light' | 'dark' } = {},
): Promise<void> {
  await page.setViewportSize(PHONE);
  const faults: string[] = [];
  const overflow = await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - innerWidth);
  if (overflow > 0) faults.push(`scrolls sideways by ${overflow} px`);
  for (const t of await smallText(page)) faults.push(`text under ${MIN_FONT_PX} px: ${t}`);
  for (const t of undersizedTargets(await targets(page))) faults.push(`target under ${MIN_TARGET_PX} px: ${t}`);
  for (const e of consoleErrors.get(page) ?? []) faults.push(e);
  if (axe) {
    try {
      await expectNoAxeViolations(page, { ...axeRulesIn(theme), label });
    } catch (error) {
      faults.push((error as Error).message);
    }
  }
  if (faults.length > 0) throw new Error(`${page.url()} [${label}]:\n  ${faults.join('\n  ')}`);
}
