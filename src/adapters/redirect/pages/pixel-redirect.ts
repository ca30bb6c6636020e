import type { PixelType } from '../../../core/pixels/pixel.ts';
import { buildCsp } from './csp.ts';
import { html, httpUrl, inlineScript, jsString, raw, urlAttr } from '../../shared/html/html.ts';
import { layout, type Page } from './layout.ts';
import { PIXEL_SNIPPETS, pixelCspSources } from './pixel-snippets.ts';

export interface PixelRedirectInput {
  /** The targeted destination; must be an absolute http(s) URL. */
  destination: string;
  pixels: readonly { type: PixelType; value: string }[];
  nonce: string;
  /** Linked in the footer (the layout's privacyUrl). */
  privacyUrl?: string;
  /** Upper bound before the visitor is sent on; clamped to 0..1000. */
  delayMs: number;
}

const MAX_PIXEL_DELAY_MS = 1000;
// After `load`, a moment for beacons the vendors fired on init to leave before navigation
// cancels them; the hard timer still caps the whole wait at delayMs.
const SETTLE_AFTER_LOAD_MS = 200;

function clampDelay(ms: number): number {
  if (!Number.isFinite(ms)) return MAX_PIXEL_DELAY_MS;
  return Math.min(MAX_PIXEL_DELAY_MS, Math.max(0, Math.floor(ms)));
}

/**
 * The page that fires a link's pixels, then sends the visitor on with location.replace (so the
 * page leaves no history entry). Whichever comes first wins: `load` plus a short settle, or a
 * hard timer of delayMs from when the script runs, so a slow or blocked vendor cannot hold the
 * visitor. Without JavaScript a <noscript> refresh does the same, and a visible link is always
 * there for a person to follow.
 *
 * With no pixels (and delayMs 0) it is also the way to end a password or consent POST: Chrome
 * and Safari apply `form-action 'self'` to the redirects of a form submission, so answering that
 * POST with a 302 to another origin would leave the visitor stuck on the form.
 *
 * Throws on a destination that is not http(s): such a page would either go nowhere or, with
 * javascript:, run code; the caller should never choose the pixel page for one.
 */
export function renderPixelRedirect(input: PixelRedirectInput): Page {
  const target = httpUrl(input.destination);
  if (target === null) throw new Error('pixel page destination must be an absolute http(s) URL');
  const delay = clampDelay(input.delayMs);
  const settle = Math.min(SETTLE_AFTER_LOAD_MS, delay);
  const refreshSeconds = Math.ceil(delay / 1000);
  const types = [...new Set(input.pixels.map((p) => p.type))];

  const snippets = raw(input.pixels.map((p) => PIXEL_SNIPPETS[p.type](p.value, input.nonce)).join('\n'));
  const redirect = inlineScript(
    input.nonce,
    `(function(u){var done=false;function go(){if(done)return;done=true;location.replace(u)}
setTimeout(go,${delay});addEventListener('load',function(){setTimeout(go,${settle})})})(${jsString(target)});`,
  );
  const head = html`<noscript><meta http-equiv="refresh" content="${`${refreshSeconds}; url=${target}`}"></noscript>`;
  const main = html`<h1>Redirecting…</h1>
<p>You are being taken to <span class="url">${new URL(target).host}</span>.</p>
<p><a href="${urlAttr(target)}">Continue</a></p>`;

  return {
    html: layout({
      title: 'Redirecting…',
      nonce: input.nonce,
      privacyUrl: input.privacyUrl,
      head,
      main,
      tail: html`${snippets}\n${redirect}`,
    }),
    csp: buildCsp(input.nonce, pixelCspSources(types)),
  };
}
